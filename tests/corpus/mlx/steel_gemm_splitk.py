#!/usr/bin/python3
"""MLX's split-K GEMM on SIMD-group matrices (kernels/steel/gemm/kernels/steel_gemm_splitk.metal, launched by
steel_gemm_splitk_axpby in mlx/backend/metal/matmul.cpp) against NumPy: D = A @ B, or alpha * (A @ B) + beta * C
(addmm), as two kernels in one submission.

The host takes this route for one matrix (no batch) whose 16 x 16 tiles number at most 1024 (2048 on Max and
Ultra), with K / 16 >= 8 and K >= max(M, N), on GPUs without NAX. Tiles: bm 16 if M < 40 else 32, bn likewise from
N, bk 16, wm = wn = 2: threadgroups of (32, 2, 2) threads, grid (tiles_n, tiles_m, partitions). partitions =
min(max(2, next_power_of_2((K / 16) / (ceil(M / 32) * ceil(N / 32)))), 32); each partition takes
((K / 16) / partitions) * 16 values of K, the last one also the rest (and, K not a multiple of 16, the leftover).
The first kernel, steel_gemm_splitk_<nn|nt|tn|tt>_<in>_<acc>_bm.._MN_<t|n>aligned_K_<t|n>aligned (A 0, B 1, the
partials 2, GEMMSpiltKParams 3), writes each partition's partial product into C_split (partitions x M x N, float32;
complex64 for complex inputs); steel_gemm_splitk_accum_<out>_<acc> (C_split 0, D 1, partitions 2, partition stride
M * N 3, ldd N 4; dispatch_threads (N, M) in get_block_dims(N, M, 1) threadgroups) sums them into D, or its
_axbpy variant (with addmm unless alpha is 1 and beta 0: C 5, ldc 6, fdc 7, alpha 8, beta 9) also adds beta * C,
C as addmm broadcasts it (a bias row: ldc 0, fdc 1). Both the partials and D are compared.

Inputs are multiples of 1/8 with few significant bits: every product and partial sum is exact in float32, so the
partials and float32 results compare exactly, and half and bfloat16 outputs are that exact value rounded once
(alpha and beta powers of two). bfloat16 buffers hold their bits (uint16); complex64 float (real, imaginary) pairs.
Shapes stay small and no dimension is a multiple of its tile where the case is about partial tiles."""
import struct

import numpy as np

from mlxcase import EXACT, TNAME, Bytes, Out, Scalar, block_dims, reference, rng, to_bf16

ref = reference("steel/gemm/kernels/steel_gemm_splitk.metal")
r = rng(1503)


def next_power_of_2(n):
    """mlx/utils.h next_power_of_2: n itself when a power of two, else the next one up (0 stays 0)."""
    if n <= 0 or n & (n - 1) == 0:
        return max(n, 0)
    return 1 << n.bit_length()


def plan(M, N, K):
    """steel_gemm_splitk_axpby's choices: (bm, bn, bk, partitions, gemm_k_iterations, partition_size)."""
    tm, tn, tk = -(-M // 32), -(-N // 32), K // 16
    bm = 16 if M < 40 else 32
    bn = 16 if N < 40 else 32
    parts = min(max(2, next_power_of_2(tk // (tm * tn))), 32)
    iters = (K // 16) // parts
    return bm, bn, 16, parts, iters, iters * 16


def splitk_params(M, N, K, lda, ldb, ldc, tiles_n, tiles_m, parts, stride, size, swizzle_log, iters):
    """mlx::steel::GEMMSpiltKParams (steel/gemm/params.h): 13 ints."""
    return struct.pack("<13i", M, N, K, lda, ldb, ldc, tiles_n, tiles_m, parts, stride, size, swizzle_log, iters)


def operand(shape, dt):
    """Values k / 8, |k| <= 8 (complex: each part): (float64 or complex128 values, the buffer)."""
    v = r.integers(-8, 9, shape) / 8.0
    if dt == "c64":
        v = v + 1j * (r.integers(-8, 9, shape) / 8.0)
    return v, stored(v, dt)


def stored(v, dt):
    """float64 (complex128) values rounded once to dtype DT, as its buffer holds them (flat; complex64 as float32
    (real, imaginary) pairs, one row per value)."""
    v = np.asarray(v)
    if dt == "bf16":
        return to_bf16(v.astype(np.float32)).reshape(-1)
    if dt == "c64":
        return np.stack([v.real, v.imag], axis=-1).astype(np.float32).reshape(-1, 2)
    return v.astype(dt).reshape(-1)


def case(dt, M, N, K, ta=False, tb=False, alpha=None, beta=None, c_shape=None, width=8):
    """D (M x N) = A @ B with A (K x M if TA) and B (N x K if TB); ALPHA/BETA: addmm with C of C_SHAPE ((M, N),
    (N,): one row broadcast, (M, 1): one column broadcast)."""
    assert K // 16 >= 8 and K >= max(M, N) and min(M, N) > 1, "not the split-K route"
    assert (-(-M // 16)) * (-(-N // 16)) <= 1024
    bm, bn, bk, parts, iters, psize = plan(M, N, K)
    a64, A = operand((K, M) if ta else (M, K), dt)
    b64, B = operand((N, K) if tb else (K, N), dt)
    a_mat = a64.T if ta else a64
    b_mat = b64.T if tb else b64
    # the partials: partition p sums k in [p * psize, (p + 1) * psize), the last one up to K
    bounds = [p * psize for p in range(parts)] + [K]
    partial = np.stack([a_mat[:, lo:hi] @ b_mat[lo:hi, :] for lo, hi in zip(bounds[:-1], bounds[1:])])
    acc = "c64" if dt == "c64" else np.float32
    prod = a_mat @ b_mat
    use_c = alpha is not None
    axpby = use_c and (alpha != 1.0 or beta != 0.0)
    if use_c:
        c_shape = c_shape or (M, N)
        c64, C = operand(c_shape, dt)
        want = alpha * prod + beta * np.broadcast_to(c64, (M, N)) if axpby else prod
        # the strides of C broadcast to (M, N), as addmm hands it over
        ldc, fdc = {(M, N): (N, 1), (N,): (0, 1), (M, 1): (1, 0)}[tuple(c_shape)]
    else:
        want = prod
    lda = M if ta else K
    ldb = K if tb else N
    tiles_n, tiles_m = -(-N // bn), -(-M // bm)
    mn_aligned, k_aligned = M % bm == 0 and N % bn == 0, K % bk == 0
    tname = TNAME.get(dt, "complex64")
    aname = "complex64" if dt == "c64" else "float32"
    entry = "steel_gemm_splitk_%s%s_%s_%s_bm%d_bn%d_bk%d_wm2_wn2_MN_%saligned_K_%saligned" % (
        "t" if ta else "n", "t" if tb else "n", tname, aname, bm, bn, bk, "t" if mn_aligned else "n",
        "t" if k_aligned else "n")
    accum = "steel_gemm_splitk_accum_%s_%s%s" % (tname, aname, "_axbpy" if axpby else "")
    params = splitk_params(M, N, K, lda, ldb, N, tiles_n, tiles_m, parts, M * N, psize, 0, iters)
    bufs = {"a": A, "b": B, "c_split": Out(stored(partial, acc), tol=EXACT),
            "d": Out(stored(want, dt), tol=EXACT, bf16=dt == "bf16")}
    tg = block_dims(N, M, 1)
    accum_bind = {0: "c_split", 1: "d", 2: Scalar("int", parts), 3: Scalar("int", M * N), 4: Scalar("int", N)}
    if axpby:
        bufs["c"] = C
        accum_bind.update({5: "c", 6: Scalar("int", ldc), 7: Scalar("int", fdc), 8: Scalar("float", alpha),
                           9: Scalar("float", beta)})
    launches = [dict(entry=entry, bind={0: "a", 1: "b", 2: "c_split", 3: Bytes(params)}, threadgroup=(32, 2, 2),
                     threadgroups=(tiles_n, tiles_m, parts), width=width),
                dict(entry=accum, bind=accum_bind, threadgroup=tg, grid=(N, M, 1), width=width)]
    name = "mlx_splitk_%s%s_%s_%dx%dx%d_p%d%s%s" % (
        "t" if ta else "n", "t" if tb else "n", tname, M, N, K, parts,
        ("_addmm" if axpby else "_addmm_ab1") + ("_c" + "x".join(map(str, c_shape)) if c_shape != (M, N) else "")
        if use_c else "", "_w%d" % width if width != 8 else "")
    ref.pipeline(name, bufs, launches)


# lavapipe's 8-wide subgroups (Metal's 32 lanes emulated across them), one case on 32-wide virtual subgroups
case(np.float32, 20, 36, 200)                       # 16 x 16 tiles, 8 partitions of 16, the last one 80 + 8 leftover
case(np.float32, 48, 40, 256, tb=True)              # 32 x 32 tiles, K aligned, M and N not: 4 partitions of 64
case(np.float32, 32, 64, 192, ta=True, width=32)    # M and N aligned (16 x 32 tiles), 8 partitions of 16
case(np.float16, 32, 32, 160, ta=True, tb=True)     # 16 partitions of 0: the last one takes all of K
# axbpy, C a bias row (ldc 0); the last partition only the 8 leftover
case(np.float16, 24, 40, 136, alpha=0.5, beta=2.0, c_shape=(40,))
case("bf16", 36, 20, 152, tb=True, alpha=2.0, beta=0.25, c_shape=(36, 1))   # axbpy, C a bias column (fdc 0)
case("bf16", 40, 24, 128)
case("c64", 20, 18, 136)

if __name__ == "__main__":
    raise SystemExit(ref.main())
