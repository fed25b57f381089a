#!/usr/bin/python3
"""Benchmark: real library kernels (MLX's and ggml's) translated and run through mtlrun on LLM-inference shapes,
against PyTorch CUDA doing the same operation and against a plain copy through mtlrun (docs/performance.md).

    bench/real_kernels.py --mtl2glsl PATH --mlx MLX_CHECKOUT --ggml GGML_PACKAGE --out DIR [--rows R] [--q4-rows M]
    then on the machine to measure:   MTLRUN=/path/to/mtlrun sh DIR/run.sh

Kernels, each launched as its library's host code launches it, as the execution tests tests/corpus/mlx/*.py and
tests/corpus/ggml_exec*.py describe it (MLX's row launch, ggml's struct packing and q4_0 blocks imported from there;
ggml's argument structs declared field for field as those tests declare them), each translated kernel also with
-ffast-math:
    MLX  rms_norm.metal rms<T>, layer_norm.metal layer_norm<T>, softmax.metal block_softmax_<T> (float32, float16):
         one threadgroup per row of 4096 (rows of R)
    ggml kernel_rms_norm_f32_4, kernel_soft_max_f32_4 (no mask, scale 1): one threadgroup per row;
         kernel_mul_mv_q4_0_f32: M rows of 4096 weights in block_q4_0 (18 bytes per 32 weights) times one float vector
    copy copy_float4 (bench/copy.metal) over R x 4096 floats: the copy bandwidth every GB/s figure is compared with
    hand the same algorithms written by hand in GLSL (bench/real_kernels/*.comp, on the translated kernel's
         reflection: same bindings and push constants), to tell the translation's cost from the algorithm's.
run.sh times each with GPU timestamps (mtlrun --timestamps --repeat 20: median of 20 runs; ggml's soft_max, whose
src0 must be bound again as its absent mask, as an mtlrun pipeline of 20 launches: the mean) on zero-filled buffers,
then (where Python has torch with CUDA) torch on the same shapes (CUDA events, median of 20 after 5 warm-up runs):
F.rms_norm, F.layer_norm, torch.softmax, and for q4_0 the dequantized float16 matrix times a float16 vector
(F.linear), and prints the table: kernel, shape, our ms, torch ms, our GB/s (compulsory traffic: each input read
once, each output written once), fraction of the copy's GB/s.

--check (small sizes, any device, e.g. lavapipe): random inputs instead of zeros and every output checked against
NumPy (mtlrun --check), the timings then meaningless: that the launches and the hand-written kernels are right.
"""
import argparse
import copy
import json
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
sys.path.insert(0, os.path.join(ROOT, "tests", "corpus", "mlx"))
sys.path.insert(0, os.path.join(ROOT, "tests", "ref"))
from mlxcase import row_launch  # noqa: E402
from ggml_ref import cstruct, pack, quant_rows  # noqa: E402

import benchrun  # noqa: E402

COLS = 4096
EPS = 1.0 / 65536            # exact in float32 (mtlrun converts a scalar only when it is exact)
I4, U8, F4 = "i4", "u8", "f4"
# ggml's argument structs as tests/corpus/ggml_exec_ops.py and ggml_exec_mv.py declare them (ggml-metal-impl.h)
NORM = cstruct(("ne00", I4), ("ne00_t", I4), ("nb1", U8), ("nb2", U8), ("nb3", U8), ("eps", F4),
               ("nef1", I4, 3), ("nef2", I4, 3), ("nef3", I4, 3), ("nbf1", U8, 3), ("nbf2", U8, 3), ("nbf3", U8, 3))
SOFT_MAX = cstruct(("ne00", I4), ("ne01", I4), ("ne02", I4), ("nb01", U8), ("nb02", U8), ("nb03", U8),
                   ("ne11", I4), ("ne12", I4), ("ne13", I4), ("nb11", U8), ("nb12", U8), ("nb13", U8),
                   ("nb1", U8), ("nb2", U8), ("nb3", U8), ("scale", F4), ("max_bias", F4), ("m0", F4), ("m1", F4),
                   ("n_head_log2", I4))
MUL_MV = cstruct(("ne00", I4), ("ne01", I4), ("ne02", I4), ("nb00", U8), ("nb01", U8), ("nb02", U8),
                 ("nb03", U8), ("ne10", I4), ("ne11", I4), ("ne12", I4), ("nb10", U8), ("nb11", U8),
                 ("nb12", U8), ("nb13", U8), ("ne0", I4), ("ne1", I4), ("nr0", I4), ("r2", "i2"), ("r3", "i2"))
REPS = 20                    # timed runs of each kernel
Q4_NSG, Q4_NR0 = 2, 4        # N_SG_Q4_0, N_R0_Q4_0: ggml's launch of kernel_mul_mv_q4_0_f32 (ggml_exec_mv.QUANT)

TNAME = {"f32": "float32", "f16": "float16"}
NPT = {"f32": np.float32, "f16": np.float16}


class Kernel:
    """One row of the table: a launch (as an mtlrun pipeline line) of a translated or hand-written kernel."""

    def __init__(self, key, label, shape, nbytes, torch, source=None, entry=None, options=(), hand=None):
        self.key, self.label, self.shape, self.nbytes, self.torch = key, label, shape, nbytes, torch
        self.source, self.entry, self.options, self.hand = source, entry, list(options), hand
        self.buffers = []      # (index, name, spec): spec "dtype:shape", a .npy file name, or None (bound again)
        self.args = []         # further mtlrun options of the launch
        self.checks = []       # (buffer name, expected .npy, rtol, atol): mtlrun --check
        self.rebinds = False   # a buffer bound at two indices must be one buffer (the kernel compares addresses)
        self.outs = []         # the same for `device char*` outputs, compared as float32 after an `out` line


def np_rms(x, w):
    v = x.astype(np.float64)
    y = v / np.sqrt((v * v).mean(axis=1, keepdims=True) + EPS)
    return y if w is None else y * w.astype(np.float64)


def np_softmax(x):
    v = x.astype(np.float64)
    e = np.exp(v - v.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def np_layer_norm(x, w, b):
    v = x.astype(np.float64)
    c = v - v.mean(axis=1, keepdims=True)
    return c / np.sqrt((c * c).mean(axis=1, keepdims=True) + EPS) * w.astype(np.float64) + b.astype(np.float64)


def kernels(args, out, r):
    """The rows of the table, with their inputs written into OUT (random with --check, else zero-filled)."""
    R, M = args.rows, args.q4_rows
    C = K = COLS
    mlx_dir = os.path.join(args.mlx, "mlx", "backend", "metal", "kernels")
    ggml_src = os.path.join(args.ggml, "cpp", "ggml-metal", "ggml-metal.metal")
    mlx_opts = ["-I", args.mlx]
    tol = {"f32": (2e-5, 2e-6), "f16": (4e-3, 2e-3)}
    ks = []

    def data(name, arr):
        """An input: ARR saved under OUT with --check, else a zero-filled buffer of its dtype and shape."""
        if args.check:
            np.save(os.path.join(out, name + ".npy"), arr)
            return name + ".npy"
        return "%s:%s" % (arr.dtype.name, "x".join(str(d) for d in arr.shape))

    def expect(k, bname, want, dt):
        if args.check:
            np.save(os.path.join(out, k.key + "_want.npy"), want)
            k.checks.append((bname, k.key + "_want.npy") + tol[dt])

    def expect_bytes(k, bname, want, dt):
        """A `device char *` result, compared as float32 after the run."""
        if args.check:
            np.save(os.path.join(out, k.key + "_want.npy"), want.reshape(-1))
            k.outs.append((bname, k.key + "_want.npy") + tol[dt])

    def rand(shape, dt, lo=-3.0, hi=3.0):
        return r.uniform(lo, hi, shape).astype(NPT[dt]) if args.check else np.zeros(shape, NPT[dt])

    x32 = xf32 = None
    for dt in ("f32", "f16"):
        es = np.dtype(NPT[dt]).itemsize
        x, w, b = rand((R, C), dt), rand(C, dt, 0.5, 1.5), rand(C, dt, -1, 1)
        x32 = x if dt == "f32" else x32
        xf32 = data("x_f32", x) if dt == "f32" else xf32
        xf, wf = data("x_" + dt, x), data("w_" + dt, w)
        # rms<T>: x, w, out, eps, axis_size, w_stride (tests/corpus/mlx/rms_norm.py)
        looped, tg, _ = row_launch(C, R, 4, 4096)
        assert not looped
        hands = ((None, "", ""), ("mlx_rms", "_hand", " (hand GLSL)"), ("mlx_rms_vec4", "_hand_vec4", " (hand GLSL, vec4)"))
        for hand, ksuf, lsuf in hands if dt == "f32" else hands[:1]:
            k = Kernel("mlx_rms_%s%s" % (dt, ksuf), "MLX rms%s%s" % (TNAME[dt], lsuf),
                       "%dx%d %s" % (R, C, dt), (2 * R * C + C) * es, "rms_" + dt,
                       os.path.join(mlx_dir, "rms_norm.metal"), "rms" + TNAME[dt], mlx_opts, hand=hand)
            k.buffers = [(0, "x_" + dt, xf), (1, "w_" + dt, wf), (2, k.key + "_out", "%s:%dx%d" % (TNAME[dt], R, C))]
            k.args = ["--threadgroups", str(R), "--threadgroup", str(tg), "--scalar", "3=float:%r" % EPS,
                      "--scalar", "4=uint:%d" % C, "--scalar", "5=uint:1"]
            expect(k, k.key + "_out", np_rms(x, w).astype(NPT[dt]), dt)
            ks.append(k)
        # layer_norm<T>: x, w, b, out, eps, axis_size, w_stride, b_stride (tests/corpus/mlx/layer_norm.py)
        bf = data("b_" + dt, b)
        looped, tg, _ = row_launch(C, R, 8, 6656)
        assert not looped
        for hand in (None, "mlx_layer_norm") if dt == "f32" else (None,):
            k = Kernel("mlx_layer_norm_%s%s" % (dt, "_hand" if hand else ""),
                       "MLX layer_norm%s%s" % (TNAME[dt], " (hand GLSL)" if hand else ""), "%dx%d %s" % (R, C, dt),
                       (2 * R * C + 2 * C) * es, "layer_norm_" + dt, os.path.join(mlx_dir, "layer_norm.metal"),
                       "layer_norm" + TNAME[dt], mlx_opts, hand=hand)
            k.buffers = [(0, "x_" + dt, xf), (1, "w_" + dt, wf), (2, "b_" + dt, bf),
                         (3, k.key + "_out", "%s:%dx%d" % (TNAME[dt], R, C))]
            k.args = ["--threadgroups", str(R), "--threadgroup", str(tg), "--scalar", "4=float:%r" % EPS,
                      "--scalar", "5=uint:%d" % C, "--scalar", "6=uint:1", "--scalar", "7=uint:1"]
            expect(k, k.key + "_out", np_layer_norm(x, w, b).astype(NPT[dt]), dt)
            ks.append(k)
        # block_softmax_<T>: in, out, axis_size (tests/corpus/mlx/softmax.py)
        looped, tg, _ = row_launch(C, R, 4, 4096)
        k = Kernel("mlx_softmax_" + dt, "MLX block_softmax_" + TNAME[dt], "%dx%d %s" % (R, C, dt), 2 * R * C * es,
                   "softmax_" + dt, os.path.join(mlx_dir, "softmax.metal"), "block_softmax_" + TNAME[dt], mlx_opts)
        k.buffers = [(0, "x_" + dt, xf), (1, k.key + "_out", "%s:%dx%d" % (TNAME[dt], R, C))]
        k.args = ["--threadgroups", str(R), "--threadgroup", str(tg), "--scalar", "2=int:%d" % C]
        expect(k, k.key + "_out", np_softmax(x).astype(NPT[dt]), dt)
        ks.append(k)

    # ggml: kernel_rms_norm_f32_4 (tests/corpus/ggml_exec_ops.py norm): args, src0, the fused sources (src0 bound
    # again: none here), dst; nth = the least power of two from 32 not below ne00 / 4, at most 1024
    x = x32
    xbf = data("x_f32_bytes", x.reshape(-1).view(np.int8))    # ggml's sources and results are `device char *`
    nth = 32
    while nth < C // 4 and nth < 1024:
        nth *= 2
    nef = np.zeros((3, 3), np.int32)
    nef[:, 0] = R, 1, 1
    nbf = np.zeros((3, 3), np.uint64)
    nbf[:, 0] = 4 * C, 4 * C * R, 4 * C * R
    with open(os.path.join(out, "ggml_rms_norm.bin"), "wb") as f:
        f.write(pack(NORM, ne00=C, ne00_t=C // 4, nb1=4 * C, nb2=4 * C * R, nb3=4 * C * R, eps=EPS,
                     nef1=nef[0], nef2=nef[1], nef3=nef[2], nbf1=nbf[0], nbf2=nbf[1], nbf3=nbf[2]))
    xb = "x_f32_bytes"
    for hand in (None, "ggml_rms_norm"):
        k = Kernel("ggml_rms_norm%s" % ("_hand" if hand else ""), "ggml kernel_rms_norm_f32_4%s" % (" (hand GLSL)" if hand else ""),
                   "%dx%d f32" % (R, C), 2 * R * C * 4, "rms_plain_f32", ggml_src, "kernel_rms_norm_f32_4", hand=hand)
        # (the host binds src0 at 2 and 3 too; the unfused kernel reads neither, nor compares them)
        k.buffers = [(1, xb, xbf), (2, "unused", "int8:16"), (3, "unused", None), (4, k.key + "_out", "int8:%d" % (4 * R * C))]
        k.args = ["--bytes", "0=ggml_rms_norm.bin", "--threadgroups", str(R), "--threadgroup", str(nth),
                  "--threadgroup-memory", "0=128"]
        expect_bytes(k, k.key + "_out", np_rms(x, None).astype(np.float32), "f32")
        ks.append(k)
    # kernel_soft_max_f32_4 without a mask or sinks: src0 bound again as both (the kernel compares the addresses);
    # nth from 32, doubled while below ne00 / 4 and nth * rows < 256 (tests/corpus/ggml_exec_ops.py soft_max)
    nth = 32
    while nth < C // 4 and nth * R < 256:
        nth *= 2
    with open(os.path.join(out, "ggml_soft_max.bin"), "wb") as f:
        f.write(pack(SOFT_MAX, ne00=C, ne01=R, ne02=1, nb01=4 * C, nb02=4 * C * R, nb03=4 * C * R, ne11=1, ne12=1, ne13=1,
                     nb1=4 * C, nb2=4 * C * R, nb3=4 * C * R, scale=1.0, max_bias=0.0, m0=1.0, m1=1.0, n_head_log2=1))
    for hand, same in ((None, True), ("ggml_soft_max", True), ("ggml_soft_max", False)):
        # same: src0 bound again at 1 and 2 (ggml's launch: mtlrun runs it as a pipeline, which it cannot repeat,
        # so a pipeline of 20 launches is timed: the mean); the hand kernel, which does not compare addresses, also
        # on its own buffers with --repeat 20 (the median), to compare the two ways of timing
        k = Kernel("ggml_soft_max%s%s" % ("_hand" if hand else "", "" if same else "_repeat"),
                   "ggml kernel_soft_max_f32_4%s%s" % (" (hand GLSL)" if hand else "", "" if same else ", --repeat"),
                   "%dx%d f32" % (R, C), 2 * R * C * 4, "softmax_f32", ggml_src, "kernel_soft_max_f32_4", hand=hand)
        k.buffers = [(1, xb, xbf), (2, xb if same else "unused", None if same else "int8:16"),
                     (3, xb if same else "unused", None), (4, k.key + "_out", "int8:%d" % (4 * R * C))]
        k.rebinds = same
        k.args = ["--bytes", "0=ggml_soft_max.bin", "--threadgroups", str(R), "--threadgroup", str(nth),
                  "--threadgroup-memory", "0=128"]
        expect_bytes(k, k.key + "_out", np_softmax(x).astype(np.float32), "f32")
        ks.append(k)
    # kernel_mul_mv_q4_0_f32 (tests/corpus/ggml_exec_mv.py mul_mv): M rows of K / 32 blocks, one vector; whole
    # groups of nr0 * nsg rows are read, so the buffer has that many rows more
    rows_tg = Q4_NR0 * Q4_NSG
    nb01 = 18 * K // 32
    # the matrix once as given (33 MB at 14336 rows: it fits in a large GPU's L2 cache between the timed runs) and
    # 4 times as tall (past any L2: the rate from memory)
    for m, tag in ((M, ""), (4 * M, "_x4")) if not args.check else ((M, ""),):
        if args.check:
            w_buf, nb01_, wq = quant_rows(r, "q4_0", m, K // 32, extra_rows=rows_tg)
            assert nb01_ == nb01
            v = r.uniform(-1, 1, K).astype(np.float32)
            np.save(os.path.join(out, "q4_w.npy"), w_buf)
            np.save(os.path.join(out, "q4_x.npy"), v.view(np.int8))
            wspec, vspec = "q4_w.npy", "q4_x.npy"
        else:
            wspec, vspec = "int8:%d" % ((m + rows_tg) * nb01), "int8:%d" % (4 * K)
        with open(os.path.join(out, "ggml_mul_mv%s.bin" % tag), "wb") as f:
            f.write(pack(MUL_MV, ne00=K, ne01=m, ne02=1, nb00=18, nb01=nb01, nb02=nb01 * m, nb03=nb01 * m, ne10=K,
                         ne11=1, ne12=1, nb10=4, nb11=4 * K, nb12=4 * K, nb13=4 * K, ne0=m, ne1=1, nr0=Q4_NR0, r2=1, r3=1))
        for hand in (None, "ggml_mul_mv_q4_0"):
            k = Kernel("ggml_mul_mv_q4_0%s%s" % (tag, "_hand" if hand else ""),
                       "ggml kernel_mul_mv_q4_0_f32%s" % (" (hand GLSL)" if hand else ""),
                       "%dx%d q4_0" % (m, K), m * nb01 + 4 * K + 4 * m, "q4_0" + tag, ggml_src, "kernel_mul_mv_q4_0_f32",
                       hand=hand)
            k.buffers = [(1, "q4_w" + tag, wspec), (2, "q4_x", vspec), (3, k.key + "_out", "int8:%d" % (4 * m))]
            k.args = ["--bytes", "0=ggml_mul_mv%s.bin" % tag, "--threadgroups", "%d,1,1" % -(-m // rows_tg),
                      "--threadgroup", "32,%d,1" % Q4_NSG, "--threadgroup-memory", "0=16",
                      "--constant", "600=short:%d" % Q4_NSG, "--constant", "602=short:1", "--constant", "603=short:1",
                      "--constant", "604=short:1"]
            if args.check:
                want = (wq.astype(np.float64) @ v.astype(np.float64)).astype(np.float32)
                np.save(os.path.join(out, k.key + "_want.npy"), want)
                k.outs.append((k.key + "_out", k.key + "_want.npy", 1e-4, 1e-4))  # a char buffer: compared as float32
            ks.append(k)

    # the copy: y = x, float4 a thread, 256 threads a threadgroup
    k = Kernel("copy", "copy_float4 (bench/copy.metal)", "%dx%d f32" % (R, C), 2 * R * C * 4, "copy_f32",
               os.path.join(HERE, "copy.metal"), "copy_float4")
    k.buffers = [(0, "x_f32", xf32), (1, "copy_out", "complex64:%d" % (R * C // 2))]
    k.args = ["--grid", str(R * C // 4), "--threadgroup", "256"]
    if args.check:
        np.save(os.path.join(out, "copy_want.npy"), x.reshape(-1).view(np.complex64))
        k.checks.append(("copy_out", "copy_want.npy", 0, 0))
    ks.append(k)
    # each translated kernel also as mtl2glsl -ffast-math translates it (no `precise`: the Vulkan compiler may
    # contract and reassociate, as Metal's default fast math lets the Metal compiler)
    fast = []
    for k in ks:
        if not k.hand and k.key != "copy":
            f = copy.copy(k)
            f.key, f.label, f.options = k.key + "_fast", k.label + " (-ffast-math)", k.options + ["-ffast-math"]
            f.checks = [(b.replace(k.key, f.key), w) + tuple(t) for b, w, *t in k.checks]
            f.outs = [(b.replace(k.key, f.key), w) + tuple(t) for b, w, *t in k.outs]
            f.buffers = [(i, n.replace(k.key, f.key), sp) for i, n, sp in k.buffers]
            fast.append(f)
    return ks + fast


TORCH = r'''#!/usr/bin/python3
"""torch on the shapes of run.sh: CUDA events, median of 20 runs after 5 warm-up runs; prints KEY MS a line."""
import sys
import torch
import torch.nn.functional as F

R, C, M, K = (int(a) for a in sys.argv[1:5])
if not torch.cuda.is_available():
    raise SystemExit("torch: no CUDA device")
dev = "cuda"
EPS = 1.0 / 65536


def rms(x, w):
    if hasattr(F, "rms_norm"):
        return F.rms_norm(x, (x.shape[-1],), w, EPS)
    y = x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + EPS).to(x.dtype)
    return y if w is None else y * w


def timed(fn):
    for _ in range(5):
        fn()
    times = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[len(times) // 2]


for name, dt in (("f32", torch.float32), ("f16", torch.float16)):
    x = torch.randn(R, C, dtype=dt, device=dev)
    w = torch.rand(C, dtype=dt, device=dev) + 0.5
    b = torch.rand(C, dtype=dt, device=dev) - 0.5
    print("rms_%s %.4f" % (name, timed(lambda: rms(x, w))))
    print("layer_norm_%s %.4f" % (name, timed(lambda: F.layer_norm(x, (C,), w, b, EPS))))
    print("softmax_%s %.4f" % (name, timed(lambda: torch.softmax(x, -1))))
    if name == "f32":
        print("rms_plain_f32 %.4f" % timed(lambda: rms(x, None)))
        y = torch.empty_like(x)
        print("copy_f32 %.4f" % timed(lambda: y.copy_(x)))
v = torch.randn(1, K, dtype=torch.float16, device=dev)
for tag, m in (("", M), ("_x4", 4 * M)):
    W = torch.randn(m, K, dtype=torch.float16, device=dev) * 0.05
    print("q4_0%s %.4f" % (tag, timed(lambda: F.linear(v, W))))
    del W
print("torch %s, %s" % (torch.__version__, torch.cuda.get_device_name()), file=sys.stderr)
'''

TABLE = r'''#!/usr/bin/python3
"""The table of run.sh: kernels.json (what each row moves), ours.txt (KEY MS from mtlrun), torch.txt (KEY MS)."""
import json
import os
import sys

d = os.path.dirname(os.path.abspath(__file__))
rows = json.load(open(os.path.join(d, "kernels.json")))


def times(name):
    t = {}
    p = os.path.join(d, name)
    if os.path.exists(p):
        for line in open(p):
            f = line.split()
            if len(f) == 2:
                try:
                    t[f[0]] = float(f[1])
                except ValueError:
                    pass
    return t


ours, torch = times("ours.txt"), times("torch.txt")
copy = ours.get("copy")
copy_gbs = [k["bytes"] for k in rows if k["key"] == "copy"][0] / (copy * 1e6) if copy else None
print("| kernel | shape | ours ms | torch ms | ours / torch | our GB/s | of copy GB/s |")
print("|---|---|---|---|---|---|---|")
for k in rows:
    t, tt = ours.get(k["key"]), torch.get(k["torch"])
    gbs = k["bytes"] / (t * 1e6) if t else None
    print("| %s | %s | %s | %s | %s | %s | %s |" % (
        k["label"], k["shape"], "%.4f" % t if t else "failed", "%.4f" % tt if tt else "-",
        "%.2fx" % (t / tt) if t and tt else "-", "%.0f" % gbs if gbs else "-",
        "%.0f%%" % (100 * gbs / copy_gbs) if gbs and copy_gbs else "-"))
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--mlx", required=True, help="the MLX checkout (mlx/backend/metal/kernels)")
    ap.add_argument("--ggml", required=True, help="the llama.rn npm package (cpp/ggml-metal/ggml-metal.metal)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int, default=8192, help="rows of 4096 for the norms, softmax and copy")
    ap.add_argument("--q4-rows", type=int, default=14336, help="rows of 4096 q4_0 weights (a multiple of 8)")
    ap.add_argument("--check", action="store_true", help="random inputs, outputs checked against NumPy (small sizes)")
    ap.add_argument("--simd-width", type=int, default=32,
                    help="mtl2glsl --subgroup-size (32: the GPU's own; 8 on lavapipe, whose subgroups are 8 wide)")
    ap.add_argument("--keep", action="store_true", help="reuse kernels already translated in OUT")
    ap.add_argument("--only", help="translate and run only the kernels whose key contains this")
    args = ap.parse_args()
    assert args.q4_rows % (Q4_NR0 * Q4_NSG) == 0, "--q4-rows must be a multiple of 8"
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    ks = kernels(args, out, np.random.default_rng(17))
    if args.only:
        ks = [k for k in ks if args.only in k.key or k.key == "copy"]
    lines = ["#!/bin/sh", "# real library kernels through mtlrun, then torch (bench/real_kernels.py)", 'cd "$(dirname "$0")"',
             "MTLRUN=${MTLRUN:-mtlrun}", "PYTHON=${PYTHON:-python3}", ": > ours.txt"]
    translated = {}
    for k in ks:
        rel = ("kernels_fast/" if "-ffast-math" in k.options else "kernels/") + k.entry
        if rel not in translated and not (args.keep and os.path.exists(os.path.join(out, rel + ".json"))):
            benchrun.translate(args.mtl2glsl, ["--subgroup-size=%d" % args.simd_width] + k.options, k.entry, k.source,
                               out, rel)
            translated[rel] = True
        comp = rel + ".comp"
        if k.hand and not os.path.exists(os.path.join(HERE, "real_kernels", k.hand + ".comp")):
            print("no bench/real_kernels/%s.comp: %s left out" % (k.hand, k.key))
            continue
        if k.hand:
            comp = "hand/%s.comp" % k.hand
            os.makedirs(os.path.join(out, "hand"), exist_ok=True)
            shutil.copy(os.path.join(HERE, "real_kernels", k.hand + ".comp"), os.path.join(out, comp))
        pipe = []
        declared = set()
        run = ["run", comp, "--reflect", rel + ".json"]
        for index, name, spec in k.buffers:
            if spec is not None and name not in declared:
                pipe.append("buffer %s = %s" % (name, spec))
                declared.add(name)
            run += ["--buffer", "%d=%s" % (index, name)]
        pipe.append(" ".join(run + k.args))
        for bname, want, rtol, atol in k.checks:
            pipe.append("check %s = %s" % (bname, want))
        for bname, want, rtol, atol in k.outs:
            pipe.append("out %s = %s_got.npy" % (bname, bname))
        with open(os.path.join(out, k.key + ".pipeline"), "w") as f:
            f.write("\n".join(pipe) + "\n")
        if args.check:
            tols = k.checks or [(None, None, 0, 0)]
            lines.append('echo "== %s"; $MTLRUN --pipeline %s.pipeline --poison --rtol %g --atol %g 2>&1 | grep -v "^device" '
                         '|| echo "%s FAILED"' % (k.key, k.key, max(c[2] for c in tols), max(c[3] for c in tols), k.key))
            for bname, want, rtol, atol in k.outs:
                lines.append('$PYTHON -c "import numpy as np; g = np.load(\'%s_got.npy\').view(np.float32); '
                             'w = np.load(\'%s\'); print(\'%s\', \'PASS\' if np.allclose(g, w, rtol=%g, atol=%g) '
                             'else \'FAIL %%g\' %% abs(g - w).max())"' % (bname, want, bname, rtol, atol))
        elif k.rebinds:
            # a buffer bound at two indices: only a pipeline does that, and mtlrun cannot repeat one
            with open(os.path.join(out, k.key + ".pipeline"), "a") as f:
                f.write("\n".join([pipe[-1 - len(k.checks) - len(k.outs)]] * (REPS - 1)) + "\n")
            lines.append('t=$($MTLRUN --pipeline %s.pipeline --timestamps 2>&1 | sed -n "s/^gpu_time_ms: //p"); '
                         't=${t:+$(awk "BEGIN{printf \\"%%.4f\\", $t/%d}")}; echo "%s ${t:-failed}" | tee -a ours.txt'
                         % (k.key, REPS, k.key))
        else:
            direct = ["$MTLRUN", comp, "--reflect", rel + ".json"]
            specs = {name: spec for _, name, spec in k.buffers if spec is not None}
            for index, name, spec in k.buffers:
                direct += ["--buffer", "%d=%s" % (index, specs[name])]
            lines.append('t=$(%s %s --timestamps --repeat %d 2>&1 | sed -n "s/^gpu_time_ms: //p"); '
                         'echo "%s ${t:-failed}" | tee -a ours.txt' % (" ".join(direct), " ".join(k.args), REPS, k.key))
    if not args.check:
        lines.append("$PYTHON torch_bench.py %d %d %d %d > torch.txt || echo 'torch: not available'"
                     % (args.rows, COLS, args.q4_rows, COLS))
        lines.append("cat torch.txt")
        lines.append("$PYTHON table.py")
    with open(os.path.join(out, "kernels.json"), "w") as f:
        json.dump([dict(key=k.key, label=k.label, shape=k.shape, bytes=k.nbytes, torch=k.torch) for k in ks], f, indent=1)
    for name, text in (("torch_bench.py", TORCH), ("table.py", TABLE)):
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s/run.sh" % out)


if __name__ == "__main__":
    main()
