#!/usr/bin/python3
"""ggml's own kernels run, against NumPy: get_rows of q4_0, q4_1, q5_0, q8_0 and q6_K rows, the f32 -> q8_0
copy, argmax (threadgroup bytes used as float and int32), the matrix products kernel_mul_mm_f32_f32 and
kernel_mul_mm_f16_f32 (SIMD-group matrices), and the mixture-of-experts product kernel_mul_mv_id_q8_0_f32 (its row
function chosen through template parameters of function type). The blocks are built and dequantized here from ggml's block formats (ggml-common.h), the argument structs
laid out as ggml-metal-impl.h declares them. Rows are padded so that blocks start at byte offsets that are not
multiples of their size, and destination rows so that a float4x4 does not start at a multiple of 64 bytes.

    ggml_exec.py OUTDIR | --list      (run by tests/run_exec.py; MTL2GLSL_GGML_DIR names the llama.rn package)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ref"))
from refcase import Bytes, InOut, Reference, rng  # noqa: E402
import ggml_ref  # noqa: E402
from ggml_ref import BLOCK, h  # noqa: E402


def block(kind):
    """Bytes of one random block of KIND and its weights (float32): ggml_ref.block with this script's generator."""
    return ggml_ref.block(r, kind)


ROOT = os.environ.get("MTL2GLSL_GGML_DIR", "")
ref = Reference(os.path.join(ROOT, "cpp", "ggml-metal", "ggml-metal.metal"))
r = rng(211)
EXACT = {"rtol": 0, "atol": 0}

# lm_ggml_metal_kargs_get_rows and lm_ggml_metal_kargs_cpy (C layout: natural alignment)
GET_ROWS = np.dtype({"names": ["ne00t", "ne00", "nb01", "nb02", "nb03", "ne10", "nb10", "nb11", "nb12", "nb1", "nb2", "nb3"],
                     "formats": ["<i4", "<i4", "<u8", "<u8", "<u8", "<i4", "<u8", "<u8", "<u8", "<u8", "<u8", "<u8"],
                     "offsets": [0, 4, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80], "itemsize": 88})
CPY_FIELDS = ["nk0", "ne00", "ne01", "ne02", "ne03", "nb00", "nb01", "nb02", "nb03", "ne0", "ne1", "ne2", "ne3",
              "nb0", "nb1", "nb2", "nb3"]
CPY = np.dtype({"names": CPY_FIELDS, "formats": ["<i8"] * 5 + ["<u8"] * 4 + ["<i8"] * 4 + ["<u8"] * 4,
                "offsets": [8 * i for i in range(17)], "itemsize": 136})


def get_rows(kind, nblocks, pad, gathered=5, rows=7, tg=4):
    bs, qk = BLOCK[kind]
    ne00 = qk * nblocks
    nb01 = bs * nblocks + pad                                # padding: a block at byte offsets not multiples of bs
    assert nb01 % bs and nb01 % 2 == 0
    data = bytearray(r.integers(0, 256, rows * nb01).astype(np.uint8).tobytes())
    w = np.zeros((rows, ne00), dtype=np.float32)
    for i in range(rows):
        for b in range(nblocks):
            blk, v = block(kind)
            data[i * nb01 + b * bs:i * nb01 + (b + 1) * bs] = blk
            w[i, qk * b:qk * (b + 1)] = v
    idx = r.integers(0, rows, 2 * gathered).astype(np.int32)  # row indices 8 bytes apart
    nb1 = 4 * ne00 + 16
    dst0 = r.uniform(-9, 9, gathered * nb1 // 4).astype(np.float32)
    dst = dst0.copy().reshape(gathered, nb1 // 4)
    dst[:, :ne00] = w[idx[0::2]]
    a = np.zeros((), dtype=GET_ROWS)
    a["ne00t"], a["ne00"], a["nb01"], a["nb02"], a["nb03"] = ne00 // 16, ne00, nb01, nb01 * rows, nb01 * rows
    a["ne10"], a["nb10"], a["nb11"], a["nb12"] = gathered, 8, 8 * 2 * gathered, 8 * 2 * gathered
    a["nb1"], a["nb2"], a["nb3"] = nb1, nb1 * gathered, nb1 * gathered
    tol = {"rtol": 1e-6, "atol": 1e-6} if kind in ("q4_1", "q6_K") else EXACT
    groups = -(-(ne00 // 16) // tg)
    ref.case("ggml_get_rows_%s" % kind, "kernel_get_rows_%s" % kind,
             {0: Bytes(a.tobytes()), 1: np.frombuffer(bytes(data), dtype=np.uint8).copy(), 2: idx,
              3: InOut(dst0, dst.reshape(-1), tol=tol)},
             threadgroup=tg, threadgroups=(gathered * groups, 1, 1))


def cpy_f32_q8_0(rows=3, nblocks=2, pad=2):
    """ggml's quantize_q8_0 on blocks of k * d (k in -127..127, one of them +-127, d a half): exactly d and k."""
    ne00 = 32 * nblocks
    x = np.zeros((rows, nblocks, 32), dtype=np.float32)
    nb1 = 34 * nblocks + pad
    dst0 = r.integers(-128, 128, rows * nb1).astype(np.int8)
    dst = bytearray(dst0.tobytes())
    for i in range(rows):
        for b in range(nblocks):
            d = np.float16(r.uniform(0.001, 0.05))
            k = r.integers(-126, 127, 32)
            k[r.integers(0, 32)] = 127 * r.choice([-1, 1])
            x[i, b] = k.astype(np.float32) * np.float32(d)
            dst[i * nb1 + 34 * b:i * nb1 + 34 * (b + 1)] = h(d) + k.astype(np.int8).tobytes()
    a = np.zeros((), dtype=CPY)
    vals = dict(nk0=nblocks, ne00=ne00, ne01=rows, ne02=1, ne03=1, nb00=4, nb01=4 * ne00, nb02=4 * ne00 * rows,
                nb03=4 * ne00 * rows, ne0=ne00, ne1=rows, ne2=1, ne3=1, nb0=34, nb1=nb1, nb2=nb1 * rows, nb3=nb1 * rows)
    for k_, v in vals.items():
        a[k_] = v
    ref.case("ggml_cpy_f32_q8_0", "kernel_cpy_f32_q8_0",
             {0: Bytes(a.tobytes()), 1: x.reshape(-1).view(np.int8),
              2: InOut(dst0, np.frombuffer(bytes(dst), dtype=np.int8), tol=EXACT)},
             threadgroup=(nblocks, 1, 1), threadgroups=(rows, 1, 1))


def argmax(rows=5, ne00=300, tg=128):
    """Threadgroup bytes used as float and int32 (stored as 4-byte words): each row's argmax, over 4 SIMD-groups."""
    nb01 = 4 * ne00 + 12
    x = np.zeros((rows, nb01 // 4), dtype=np.float32)
    for i in range(rows):
        x[i] = r.permutation(nb01 // 4).astype(np.float32) * np.float32(0.01) - np.float32(1)  # distinct values
    want = x[:, :ne00].argmax(axis=1).astype(np.int32)
    a = np.zeros((), dtype=np.dtype({"names": ["ne00", "nb01"], "formats": ["<i8", "<u8"], "offsets": [0, 8], "itemsize": 16}))
    a["ne00"], a["nb01"] = ne00, nb01
    from refcase import Out
    ref.case("ggml_argmax_f32", "kernel_argmax_f32", {0: Bytes(a.tobytes()), 1: x.reshape(-1).view(np.int8),
                                                      2: Out(want.view(np.int8), tol=EXACT)},
             threadgroup=tg, threadgroups=rows, threadgroup_memory={0: 2 * 32 * 4})


# lm_ggml_metal_kargs_mul_mm (C layout: natural alignment)
MUL_MM = np.dtype({"names": ["ne00", "ne02", "nb01", "nb02", "nb03", "ne12", "nb10", "nb11", "nb12", "nb13", "ne0", "ne1",
                             "r2", "r3"],
                   "formats": ["<i4", "<i4", "<u8", "<u8", "<u8", "<i4", "<u8", "<u8", "<u8", "<u8", "<i4", "<i4", "<i2", "<i2"],
                   "offsets": [0, 4, 8, 16, 24, 32, 40, 48, 56, 64, 72, 76, 80, 82], "itemsize": 88})


def mul_mm(t0, M, N, K):
    """kernel_mul_mm_<t0>_f32 (SIMD-group matrices): dst[i1][i0] = dot(src0 row i0, src1 row i1), src0 M rows of K
    (f32 or f16), src1 N rows of K (f32), launched as ggml-metal-ops.cpp and ggml-metal-device.cpp do: args at
    buffer 0, src0, src1, dst at 1-3, ((N + 31) / 32, (M + 63) / 64, ne12 * ne13) threadgroups of 32 x 4 threads,
    threadgroup memory 8192 bytes when the output needs bounds checks (6144 otherwise), function constants bc_inp =
    K % 32 != 0, bc_out = M % 64 or N % 32, ne12, ne13, r2, r3 (shorts; ne13 is not used by this kernel). The
    kernel holds both operands as half: the values are multiples of 1/8 up to 1 in magnitude, so every product and
    sum is exact in float and the result is compared bit for bit."""
    dt = np.float32 if t0 == "f32" else np.float16
    a0 = (r.integers(-8, 9, (M, K)) / 8).astype(dt)
    a1 = (r.integers(-8, 9, (N, K)) / 8).astype(np.float32)
    want = (a1.astype(np.float64) @ a0.astype(np.float64).T).astype(np.float32)   # [N, M]
    e0 = a0.itemsize
    a = np.zeros((), dtype=MUL_MM)
    vals = dict(ne00=K, ne02=1, nb01=e0 * K, nb02=e0 * K * M, nb03=e0 * K * M, ne12=1, nb10=4, nb11=4 * K, nb12=4 * K * N,
                nb13=4 * K * N, ne0=M, ne1=N, r2=1, r3=1)
    for k_, v in vals.items():
        a[k_] = v
    bc_inp, bc_out = K % 32 != 0, M % 64 != 0 or N % 32 != 0
    from refcase import Out, Scalar
    ref.case("ggml_mul_mm_%s_f32_%dx%dx%d" % (t0, M, N, K), "kernel_mul_mm_%s_f32" % t0,
             {0: Bytes(a.tobytes()), 1: a0.reshape(-1).view(np.int8), 2: a1.reshape(-1).view(np.int8),
              3: Out(want.reshape(-1).view(np.int8), tol=EXACT)},
             threadgroup=(32, 4, 1), threadgroups=(-(-N // 32), -(-M // 64), 1),
             threadgroup_memory={0: 8192 if bc_out else 6144},
             constants={700: Scalar("bool", bc_inp), 701: Scalar("bool", bc_out), 702: Scalar("short", 1),
                        704: Scalar("short", 1), 705: Scalar("short", 1)})


# lm_ggml_metal_kargs_mul_mv_id (C layout: natural alignment)
MUL_MV_ID = np.dtype({"names": ["nei0", "nei1", "nbi1", "ne00", "ne01", "ne02", "nb00", "nb01", "nb02", "ne10", "ne11",
                                "ne12", "ne13", "nb10", "nb11", "nb12", "ne0", "ne1", "nb1", "nr0"],
                      "formats": ["<i4", "<i4", "<u8", "<i4", "<i4", "<i4", "<u8", "<u8", "<u8", "<i4", "<i4", "<i4", "<i4",
                                  "<u8", "<u8", "<u8", "<i4", "<i4", "<u8", "<i4"],
                      "offsets": [0, 4, 8, 16, 20, 24, 32, 40, 48, 56, 60, 64, 68, 72, 80, 88, 96, 100, 104, 112],
                      "itemsize": 120})


def mul_mv_id_q8_0_f32(experts=3, rows=5, nblocks=5, used=2, tokens=2, pad=2):
    """kernel_mul_mv_id_q8_0_f32 (a mixture of experts' matrix-vector product): the row function is chosen at compile
    time, kernel_mul_mv_id<mmv_fn<kernel_mul_mv_q8_0_f32_impl<N_R0_Q8_0>>>, through template parameters of function
    type. dst[t][u] = src0[ids[t][u]] @ src1[t][u % ne11] for each token t and used expert u. Launched as
    ggml-metal-ops.cpp does: args at buffer 0, src0, src1, dst, ids at 1-4, (ceil(rows / nr0), 1, used * tokens)
    threadgroups of 32 x nsg threads (N_R0_Q8_0 = 2, N_SG_Q8_0 = 4), 32 * 4 * nr0 bytes of threadgroup memory,
    function constants nsg (600) and ne12, r2, r3 = 1 (602-604). The scales are k/256 (k < 16) and the inputs
    multiples of 1/8 up to 1 in magnitude: every product and sum is exact in float, so the result is compared bit
    for bit. Weight rows are padded (blocks at byte offsets that are not multiples of 34), with a row of padding
    past the last expert: ggml's kernel reads whole row pairs."""
    nr0, nsg, K = 2, 4, 32 * nblocks
    nb01 = 34 * nblocks + pad
    q = r.integers(-128, 128, (experts, rows, nblocks, 32)).astype(np.int8)
    d = (r.integers(1, 16, (experts, rows, nblocks)) / 256 * r.choice([-1, 1], (experts, rows, nblocks))).astype(np.float16)
    w_buf = bytearray(r.integers(0, 256, (experts * rows + 1) * nb01).astype(np.uint8).tobytes())
    for e in range(experts):
        for i in range(rows):
            for blk in range(nblocks):
                o = (e * rows + i) * nb01 + 34 * blk
                w_buf[o:o + 34] = h(d[e, i, blk]) + q[e, i, blk].tobytes()
    w = q.astype(np.float64) * d.astype(np.float64)[..., None]       # [experts, rows, nblocks, 32]
    w = w.reshape(experts, rows, K)
    x = (r.integers(-8, 9, (tokens, used, K)) / 8).astype(np.float32)
    ids = np.stack([r.permutation(experts)[:used] for _ in range(tokens)]).astype(np.int32)
    nbi1 = 4 * used + 8                                       # ids rows padded
    ids_buf = np.zeros((tokens, nbi1 // 4), dtype=np.int32)
    ids_buf[:, :used] = ids
    nb11 = 4 * K + 8                                          # src1 rows padded
    nb12 = nb11 * used + 16
    x_buf = np.zeros(tokens * nb12 // 4, dtype=np.float32)
    want = np.zeros((tokens, used, rows), dtype=np.float32)
    for t in range(tokens):
        for u in range(used):
            o = (t * nb12 + u * nb11) // 4
            x_buf[o:o + K] = x[t, u]
            want[t, u] = (w[ids[t, u]] @ x[t, u].astype(np.float64)).astype(np.float32)
    a = np.zeros((), dtype=MUL_MV_ID)
    vals = dict(nei0=used, nei1=tokens, nbi1=nbi1, ne00=K, ne01=rows, ne02=experts, nb00=34, nb01=nb01,
                nb02=nb01 * rows, ne10=K, ne11=used, ne12=tokens, ne13=1, nb10=4, nb11=nb11, nb12=nb12,
                ne0=rows, ne1=used, nb1=4 * rows, nr0=nr0)
    for k_, v in vals.items():
        a[k_] = v
    from refcase import Out, Scalar
    ref.case("ggml_mul_mv_id_q8_0_f32", "kernel_mul_mv_id_q8_0_f32",
             {0: Bytes(a.tobytes()), 1: np.frombuffer(bytes(w_buf), dtype=np.int8).copy(), 2: x_buf.view(np.int8),
              3: Out(want.reshape(-1).view(np.int8), tol=EXACT), 4: ids_buf.reshape(-1).view(np.int8)},
             threadgroup=(32, nsg, 1), threadgroups=(-(-rows // nr0), 1, used * tokens),
             threadgroup_memory={0: 32 * 4 * nr0},
             constants={600: Scalar("short", nsg), 602: Scalar("short", 1), 603: Scalar("short", 1),
                        604: Scalar("short", 1)})


get_rows("q4_0", 3, 2)
get_rows("q4_1", 3, 4)
get_rows("q5_0", 3, 2)
get_rows("q8_0", 3, 2)
get_rows("q6_K", 2, 2)
cpy_f32_q8_0()
argmax()
mul_mm("f32", 72, 45, 100)    # bounds checks on the input (K % 32) and the output (M % 64, N % 32)
mul_mm("f16", 72, 45, 100)
mul_mm("f16", 128, 64, 128)   # whole tiles: src1 staged as half2x4, the result stored straight to device memory
mul_mv_id_q8_0_f32()

if __name__ == "__main__":
    raise SystemExit(ref.main())
