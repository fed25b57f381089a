#!/usr/bin/python3
"""MLX's tiled GEMM on SIMD-group matrices (kernels/steel/gemm/kernels/steel_gemm_fused.metal, launched by
steel_matmul_regular_axpby in mlx/backend/metal/matmul.cpp) against NumPy: D = A @ B, or alpha * (A @ B) + beta * C
with an output source (addmm). The tiles a large device ('d') picks for a smaller matmul (GEMM_TPARAM_MACRO,
M * N under 2^20): float32 nt bm 32, bn 64, bk 16, wm 1, wn 2; other float32 bm 64, bn 32, bk 32, wm 2, wn 2; half
and bfloat16 nt bm 64, bn 32, bk 32, wm 2, wn 2, else bm 64, bn 64, bk 16, wm 1, wn 2. Threadgroups of
(32, wn, wm) threads, one per bm x bn tile of D: grid (tiles_n, tiles_m, batch).
Buffers: A 0, B 1, C 2 and its GEMMAddMMParams 5 (only with use_out_source), D 3, GEMMParams 4, batch shape 6 and
the batch strides of A, B (and C) 7 (only with has_batch). Function constants: has_batch 10, use_out_source 100,
do_axpby 110, align_M/N/K 200-202 (whether M, N, K are multiples of the tile). Inputs are multiples of 1/8 with
few significant bits, so every product and partial sum is exact in float32, the accumulator of every type, and
half and bfloat16 outputs are that exact value rounded once (alpha and beta powers of two): compared exactly,
whatever the order of accumulation. bfloat16 buffers hold their bits (uint16).
Half and bfloat16 run nt only: their other tile, bm 64, bn 64, bk 16, wm 1, wn 2 (32 fragments a SIMD-group), takes
lavapipe minutes. A small device's ('g') tiles: float32 tn on the default 64 x 64 x 16 tile, whose two BlockLoaders
are one struct type over A/As and B/Bs (mtl2glsl keeps a pointer member's root per object), and complex64 on
64 x 32 x 8 (complex64_t tiles in threadgroup memory read as float pairs by the Karatsuba BlockMMA); complex64 runs
without an output source: MLX's AddMM refuses complex types (its fused kernel's epilogue is TransformAxpby<float,
float>). Shapes stay small (lavapipe emulates each 8x8 product with 12 SIMD-group shuffles)."""
import struct

import numpy as np

from mlxcase import EXACT, TNAME, Bytes, Out, gemm_params, reference, rng, to_bf16
from refcase import Scalar

ref = reference("steel/gemm/kernels/steel_gemm_fused.metal")
r = rng(1207)


def tiles(dt, ta, tb, devc="d"):
    """GEMM_TPARAM_MACRO for devc 'd' and M * N * batch under 2^20, or for a small device ('g': M1/M2 class):
    (bm, bn, bk, wm, wn); 64, 64, 16, 2, 2 where the macro leaves the default."""
    nt = not ta and tb
    if devc == "g":
        if dt == "c64":
            return (64, 32, 8, 4, 1)
        if nt:
            return (64, 32, 32, 2, 2)
        return (64, 64, 16, 2, 2) if dt == np.float32 else (64, 64, 16, 1, 2)
    if dt == np.float32:
        return (32, 64, 16, 1, 2) if nt else (64, 32, 32, 2, 2)
    return (64, 32, 32, 2, 2) if nt else (64, 64, 16, 1, 2)


def addmm_params(ldc, fdc, bsc, alpha, beta):
    """mlx::steel::GEMMAddMMParams: ldc, fdc, int64 batch_stride_c, float alpha, beta (24 bytes)."""
    return struct.pack("<2iq2f", ldc, fdc, bsc, alpha, beta)


def operand(shape, dt):
    """Values k / 8, |k| <= 8 (complex: each part): (float64 or complex128 values, the buffer: bfloat16 as bits,
    complex64 as float32 (real, imaginary) pairs)."""
    v = r.integers(-8, 9, shape) / 8.0
    if dt == "c64":
        v = v + 1j * (r.integers(-8, 9, shape) / 8.0)
        return v, complex_buffer(v)
    return v, (to_bf16(v.astype(np.float32)) if dt == "bf16" else v.astype(dt))


def complex_buffer(v):
    """complex values as complex64_t's layout: float32 (real, imaginary) pairs, one row per value."""
    return np.stack([v.real, v.imag], axis=-1).astype(np.float32).reshape(-1, 2)


def stored(v, dt):
    """float64 values rounded once to the output dtype, as the buffer holds them."""
    if dt == "bf16":
        return to_bf16(v.astype(np.float32))
    if dt == "c64":
        return complex_buffer(v)
    return v.astype(dt)


def case(dt, M, N, K, ta=False, tb=False, batch=(), a_bcast=False, alpha=None, beta=None, width=None, devc="d"):
    """A case of batch shape BATCH (() one matrix; one dimension: batch strides in GEMMParams; two or more:
    has_batch, with A broadcast over the first batch dimension when A_BCAST); ALPHA/BETA: an output source C."""
    BM, BN, BK, WM, WN = tiles(dt, ta, tb, devc)
    nb = int(np.prod(batch)) if batch else 1
    a_shape = ((1,) + tuple(batch[1:]) if a_bcast else tuple(batch)) + ((K, M) if ta else (M, K))
    a64, A = operand(a_shape, dt)
    b64, B = operand(tuple(batch) + ((N, K) if tb else (K, N)), dt)
    a_mat = np.swapaxes(a64, -1, -2) if ta else a64
    b_mat = np.swapaxes(b64, -1, -2) if tb else b64
    prod = np.matmul(a_mat, b_mat)
    prod = np.broadcast_to(prod, tuple(batch) + (M, N))
    use_out = alpha is not None
    c64, C = operand(tuple(batch) + (M, N), dt) if use_out else (None, None)
    want = (alpha * prod + beta * c64) if use_out else prod
    want = stored(want, dt)
    want = want if dt == "c64" else want.reshape(-1)

    lda = M if ta else K
    ldb = K if tb else N
    tiles_n, tiles_m = -(-N // BN), -(-M // BM)
    has_batch = len(batch) > 1
    a_mat_size, b_mat_size = M * K, K * N
    params = gemm_params(M, N, K, lda, ldb, N, tiles_n, tiles_m, 0 if a_bcast else a_mat_size, b_mat_size, M * N,
                         0, K // BK, max(len(batch), 1))
    flat = (lambda x: x) if dt == "c64" else (lambda x: x.reshape(-1))
    bufs = {0: flat(A), 1: flat(B), 3: Out(want, tol=EXACT, bf16=dt == "bf16"), 4: Bytes(params)}
    consts = {10: Scalar("bool", has_batch), 100: Scalar("bool", use_out),
              110: Scalar("bool", use_out and (alpha != 1.0 or beta != 1.0)),
              200: Scalar("bool", M % BM == 0), 201: Scalar("bool", N % BN == 0), 202: Scalar("bool", K % BK == 0)}
    if has_batch:   # batch_shape, then the strides of A, of B (and of C), each batch_ndim long
        def bstrides(shape, mat, bcast):
            s, acc = [], mat
            for i in range(len(shape) - 1, -1, -1):
                s.insert(0, 0 if (bcast and i == 0) else acc)
                acc *= shape[i]
            return s
        strides = bstrides(batch, a_mat_size, a_bcast) + bstrides(batch, b_mat_size, False)
        if use_out:
            strides += bstrides(batch, M * N, False)
        bufs[6] = np.asarray(batch, dtype=np.int32)
        bufs[7] = np.asarray(strides, dtype=np.int64)
    if use_out:
        bufs[2] = flat(C)
        bufs[5] = Bytes(addmm_params(N, 1, M * N, alpha, beta))
    entry = "steel_gemm_fused_%s%s_%s_%s_bm%d_bn%d_bk%d_wm%d_wn%d" % (
        "t" if ta else "n", "t" if tb else "n", TNAME.get(dt, "complex64"), TNAME.get(dt, "complex64"), BM, BN, BK, WM, WN)
    name = "mlx_steel_%s%s_%s_%dx%dx%d%s%s%s%s" % ("t" if ta else "n", "t" if tb else "n", TNAME.get(dt, "complex64"), M, N, K,
                                      "_b" + "x".join(map(str, batch)) if batch else "",
                                      "_addmm" if use_out else "", "" if width is None else "_w%d" % width,
                                      "" if devc == "d" else "_" + devc)
    ref.case(name, entry, bufs, threadgroup=(32, WN, WM), threadgroups=(tiles_n, tiles_m, nb), constants=consts,
             width=width)


# lavapipe's 8-wide subgroups (Metal's 32 lanes emulated across them), and one case on 32-wide virtual subgroups
case(np.float32, 70, 40, 40, width=8)                          # no dimension a multiple of its tile: 2 x 2 tiles
case(np.float32, 40, 24, 20, width=32)
case(np.float32, 32, 64, 32, tb=True, batch=(2,), width=8)     # nt, every dimension aligned; batch strides
case(np.float32, 37, 45, 33, ta=True, alpha=0.5, beta=2.0, width=8)    # tn, addmm with axpby
case(np.float32, 20, 30, 24, ta=True, tb=True, batch=(2, 3), a_bcast=True, width=8)   # tt, has_batch: A broadcast
case(np.float16, 40, 50, 40, tb=True, alpha=1.0, beta=1.0, width=8)   # nt half, addmm without axpby (TransformAdd)
case(np.float16, 64, 32, 64, tb=True, width=8)                 # nt half, aligned
case("bf16", 40, 30, 50, tb=True, alpha=2.0, beta=0.5, width=8)   # nt bfloat16, axpby
case("bf16", 33, 40, 20, tb=True, width=8)                     # nt bfloat16
# a small device ('g'): float32 tn takes the default 64 x 64 x 16 tile, whose A and B loaders are one struct type
# (BlockLoader<float, 16, 64, ...> over A and As, B and Bs); complex64 its 64 x 32 x 8 tile (complex64_t tiles
# in threadgroup memory, read as float pairs by the Karatsuba BlockMMA)
case(np.float32, 40, 50, 24, ta=True, width=8, devc="g")
case("c64", 40, 24, 20, width=8, devc="g")

if __name__ == "__main__":
    raise SystemExit(ref.main())
