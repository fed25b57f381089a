#!/usr/bin/python3
"""Benchmark: an f16 GEMM on SIMD-group matrices, translated and run through mtlrun, against torch.matmul.

    bench/gemm.py --mtl2glsl PATH --out DIR [--size N]      then on the machine to measure:
    MTLRUN=/path/to/mtlrun sh DIR/run.sh

bench/gemm.metal (C = A * B, N x N x N, half inputs and result, float accumulation, written the way MLX's steel
GEMM is: its tile parameters, padding, loader and unrolled loops) is translated for each build and run.sh times each
with GPU timestamps (median of 20 runs) on zero-filled buffers, printing milliseconds and TFLOP/s (2 N^3
operations); then, where Python has torch with a GPU, torch.matmul on the same shapes (CUDA events, median of 20
after 5 warm-up runs). Builds (the _wm1 ones: -DWM=1, MLX's 1 x 2 SIMD-groups of its large devices; the others
its 2 x 2):
    native      --subgroup-size=32                       8x8 products from 12 subgroup shuffles each (exact path)
    tensor_cores --subgroup-size=32 --tensor-cores       each 8x8 product one 16x8x8 tensor-core product (half of its
                rows used), lanes renamed (docs/translator.md, "Tensor cores")
    virtual32   --subgroup-size=32 --virtual-subgroups   the same over shared-memory subgroups (testing only)
    emulated16  --subgroup-size=16 --virtual-subgroups   SIMD-groups spanning subgroups: products through shared memory
    coopmat_steel bench/coopmat/gemm_nv_steel.comp: the tiling of tensor_cores_wm1 written by hand on
                GL_NV_cooperative_matrix (16x16x16 tiles loaded with coopMatLoadNV): what this tiling allows
    coopmat_nv  bench/coopmat/gemm_nv.comp: a GEMM tuned by hand on GL_NV_cooperative_matrix (larger tiles, K
                steps of 32, the next tiles read during the products): what the fast path can reach
The hand-written ones run on native's reflection with `cooperativeMatrix` added.
With --mlx MLX_CHECKOUT, MLX's own kernel too: steel_gemm_fused.metal's
steel_gemm_fused_nn_float16_float16_bm64_bn64_bk16_wm1_wn2 (what MLX picks for this product on its large devices),
launched as steel_matmul_regular_axpby launches it (GEMMParams in buffer 4, function constants has_batch,
use_out_source, do_axpby false and align_M/N/K true; tests/corpus/mlx/steel_gemm.py), as mlx_native and
mlx_tensor_cores. MLX keeps its A and B fragments in float, so --tensor-cores leaves its products on the FP32 units
(docs/translator.md, "Tensor cores"): the two builds should time alike.
A build the device cannot run prints mtlrun's refusal and the script goes on. Before timing, each build runs once
at N = 256 on random inputs against NumPy's product (float64, rounded to half; --rtol/--atol 1e-2: float
accumulation in another order) and prints PASS or FAIL.
"""
import argparse
import json
import os
import shutil
import sys

import numpy as np

import benchrun

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "corpus", "mlx"))
from mlxcase import gemm_params  # noqa: E402

MLX_ENTRY = "steel_gemm_fused_nn_float16_float16_bm64_bn64_bk16_wm1_wn2"
MLX_BUILDS = [("mlx_native", ["--subgroup-size=32"]), ("mlx_tensor_cores", ["--subgroup-size=32", "--tensor-cores"])]
# function constants has_batch 10, use_out_source 100, do_axpby 110, align_M/N/K 200-202
MLX_CONSTANTS = "--constant 10=bool:false --constant 100=bool:false --constant 110=bool:false " \
                "--constant 200=bool:true --constant 201=bool:true --constant 202=bool:true"
# (name, translator options, threads per threadgroup)
BUILDS = [("native", ["--subgroup-size=32"], 128), ("tensor_cores", ["--subgroup-size=32", "--tensor-cores"], 128),
          ("native_wm1", ["--subgroup-size=32", "-DWM=1"], 64),
          ("tensor_cores_wm1", ["--subgroup-size=32", "--tensor-cores", "-DWM=1"], 64),
          ("virtual32", ["--subgroup-size=32", "--virtual-subgroups"], 128),
          ("emulated16", ["--subgroup-size=16", "--virtual-subgroups"], 128)]
# (name, file in bench/coopmat, threads, tile rows x columns of a threadgroup, its shared memory in bytes)
HAND = [("coopmat_steel", "gemm_nv_steel.comp", 64, (64, 64), (64 * 3 + 16 * 9) * 16),
        ("coopmat_nv", "gemm_nv.comp", 256, (128, 256), (128 * 5 + 32 * 33) * 16)]

TORCH = r'''python3 - "$N" <<'PY' 2>/dev/null || echo "torch.matmul not available"
import sys, torch
n = int(sys.argv[1])
if not torch.cuda.is_available():
    raise SystemExit("torch: no CUDA device")
a = torch.randn(n, n, dtype=torch.float16, device="cuda")
b = torch.randn(n, n, dtype=torch.float16, device="cuda")
for _ in range(5):
    torch.matmul(a, b)
times = []
for _ in range(20):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); torch.matmul(a, b); e.record(); torch.cuda.synchronize()
    times.append(s.elapsed_time(e))
t = sorted(times)[len(times) // 2]
print("torch.matmul %.3f %.1f" % (t, 2.0 * n ** 3 / (t * 1e9)))
PY'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", type=int, default=8192, help="N of the N x N x N product (a multiple of 256)")
    ap.add_argument("--mlx", help="an MLX checkout: time MLX's own steel GEMM too")
    args = ap.parse_args()
    n = args.size
    assert n % 256 == 0, "--size must be a multiple of 256"
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "mnk.bin"), "wb") as f:
        f.write(b"".join(v.to_bytes(4, "little") for v in (n, n, n, 0)))  # constant uint3&: 16 bytes
    io = ["--buffer", "0=float16:%dx%d" % (n, n), "--buffer", "1=float16:%dx%d" % (n, n),
          "--buffer", "2=float16:%dx%d" % (n, n), "--bytes", "3=mnk.bin"]
    lines = ["#!/bin/sh", 'cd "$(dirname "$0")"', "MTLRUN=${MTLRUN:-mtlrun}", "N=%d" % n,
             'echo "build gpu_ms_median TFLOP/s (N=$N)"']
    flops = 2.0 * n ** 3

    def timing(build, threads, tile):
        grid = "%d,%d" % (n // tile[1], n // tile[0])
        cmd = "$MTLRUN %s/gemm_f16.comp --reflect %s/gemm_f16.json --threadgroups %s --threadgroup %d %s --timestamps --repeat 20" % (
            build, build, grid, threads, " ".join(io))
        lines.append('t=$(%s 2>&1 | sed -n "s/^gpu_time_ms: //p"); '
                     'if [ -n "$t" ]; then echo "%s $t $(awk "BEGIN{printf \\"%%.1f\\", %.0f/($t*1e9)}")"; '
                     'else echo "%s refused"; fi' % (cmd, build, flops, build))

    for build, opts, threads in BUILDS:
        benchrun.translate(args.mtl2glsl, opts, "gemm_f16", os.path.join(HERE, "gemm.metal"), out, "%s/gemm_f16" % build)
        timing(build, threads, (64, 64))
    for build, name, threads, tile, shared in HAND:  # on native's reflection with the feature it needs
        os.makedirs(os.path.join(out, build), exist_ok=True)
        shutil.copy(os.path.join(HERE, "coopmat", name), os.path.join(out, build, "gemm_f16.comp"))
        with open(os.path.join(out, "native", "gemm_f16.json")) as f:
            refl = json.load(f)
        refl["features"].append("cooperativeMatrix")
        refl["extensions"] += ["GL_NV_cooperative_matrix", "GL_KHR_memory_scope_semantics"]
        refl["threadgroup_memory"] = shared
        with open(os.path.join(out, build, "gemm_f16.json"), "w") as f:
            json.dump(refl, f, indent=1)
        timing(build, threads, tile)
    def mlx_params(size, name):  # GEMMParams of an nn product, no batch
        with open(os.path.join(out, name), "wb") as f:
            f.write(gemm_params(size, size, size, size, size, size, size // 64, size // 64, size * size, size * size,
                                size * size, 0, size // 16, 1))

    mlx_src = args.mlx and os.path.join(args.mlx, "mlx", "backend", "metal", "kernels", "steel", "gemm", "kernels",
                                        "steel_gemm_fused.metal")
    if mlx_src:
        mlx_params(n, "mlx_params.bin")
        for build, opts in MLX_BUILDS:
            benchrun.translate(args.mtl2glsl, opts + ["-I", args.mlx], MLX_ENTRY, mlx_src, out, "%s/%s" % (build, MLX_ENTRY))
            cmd = ("$MTLRUN %s/%s.comp --reflect %s/%s.json --threadgroups %d,%d --threadgroup 32,2,1 --buffer 0=float16:%dx%d "
                   "--buffer 1=float16:%dx%d --buffer 3=float16:%dx%d --bytes 4=mlx_params.bin %s --timestamps --repeat 20" % (
                       build, MLX_ENTRY, build, MLX_ENTRY, n // 64, n // 64, n, n, n, n, n, n, MLX_CONSTANTS))
            lines.append('t=$(%s 2>&1 | sed -n "s/^gpu_time_ms: //p"); '
                         'if [ -n "$t" ]; then echo "%s $t $(awk "BEGIN{printf \\"%%.1f\\", %.0f/($t*1e9)}")"; '
                         'else echo "%s refused"; fi' % (cmd, build, flops, build))

    # correctness at N = 256 (coopmat_nv: 1 x 2 workgroups), before the timings
    c = 256
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (c, c)).astype(np.float16)
    b = rng.uniform(-1, 1, (c, c)).astype(np.float16)
    np.save(os.path.join(out, "check_a.npy"), a)
    np.save(os.path.join(out, "check_b.npy"), b)
    np.save(os.path.join(out, "check_c.npy"), (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16))
    with open(os.path.join(out, "check_mnk.bin"), "wb") as f:
        f.write(b"".join(v.to_bytes(4, "little") for v in (c, c, c, 0)))
    check_io = ("--buffer 0=check_a.npy --buffer 1=check_b.npy --buffer 2=float16:%dx%d --bytes 3=check_mnk.bin "
                "--poison --check 2=check_c.npy --rtol 1e-2 --atol 1e-2" % (c, c))
    checks = ['echo "check (N=%d)"' % c]
    for build, tg, t in ([(b_, "%d,%d" % (c // 64, c // 64), th) for b_, _, th in BUILDS] +
                         [(b_, "%d,%d" % (c // tile[1], c // tile[0]), th) for b_, _, th, tile, _ in HAND]):
        checks.append("$MTLRUN %s/gemm_f16.comp --reflect %s/gemm_f16.json --threadgroups %s --threadgroup %s %s 2>&1 "
                      "| grep -E 'PASS|FAIL|error' | sed 's/^/%s: /'" % (build, build, tg, t, check_io, build))
    if mlx_src:
        mlx_params(c, "check_mlx_params.bin")
        for build, _ in MLX_BUILDS:
            checks.append("$MTLRUN %s/%s.comp --reflect %s/%s.json --threadgroups %d,%d --threadgroup 32,2,1 --buffer 0=check_a.npy "
                          "--buffer 1=check_b.npy --buffer 3=float16:%dx%d --bytes 4=check_mlx_params.bin %s --poison "
                          "--check 3=check_c.npy --rtol 1e-2 --atol 1e-2 2>&1 | grep -E 'PASS|FAIL|error' | sed 's/^/%s: /'" % (
                              build, MLX_ENTRY, build, MLX_ENTRY, c // 64, c // 64, c, c, MLX_CONSTANTS, build))
    lines[5:5] = checks
    lines.append(TORCH)
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s/run.sh" % out)


if __name__ == "__main__":
    main()
