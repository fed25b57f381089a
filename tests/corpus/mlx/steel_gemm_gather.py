#!/usr/bin/python3
"""MLX's gathered GEMMs on SIMD-group matrices (kernels/steel/gemm/kernels/steel_gemm_gather.metal, launched by
gather_mm and gather_mm_rhs in mlx/backend/metal/matmul.cpp for GatherMM: mx.gather_mm) against NumPy:
out[i] = A[lhs_indices[i]] @ B[rhs_indices[i]], the indices (uint32) broadcast together over the output's batch.

gather_mm (M and N over 15 rows and columns, so neither gemv nor the wide gather takes it; the tiles of
GEMM_TPARAM_MACRO for a large device ('d') and a smaller matmul, as steel_gemm.py: float32 nt 32 x 64 x 16 wm 1
wn 2, other float32 64 x 32 x 32 wm 2 wn 2, half and bfloat16 nt 64 x 32 x 32 wm 2 wn 2; float32 nt on a small
device ('g') 64 x 32 x 32 wm 2 wn 2: 32 x 64 wm 1 wn 2 (16 fragments a SIMD-group) takes lavapipe's compiler
minutes):
`steel_gather_mm_<nn|nt|tn|tt>_<T>_<T>_bm.._bn.._bk.._wm.._wn..`, A 0, B 1, lhs_indices 2, rhs_indices 3, out 4,
GEMMParams 5 (batch strides of A and B: the indices' first strides), the indices' shape 6 and strides 7, 8, A's
batch ndim 9, shape 10 and strides 11, B's 12-14; function constants has_batch 10 (indices of more than one
dimension), align_M/N/K 200-202. Threadgroups (32, wn, wm), grid (tiles_n, tiles_m, number of indices).
gather_mm_rhs (rows of A one vector each, M == 1, with right-sorted indices and no lhs indices, on GPUs without
NAX): `steel_gather_mm_rhs_n<n|t>_<T>_<T>_bm16_bn64_bk16_wm1_wn2`, the vectors as one matrix of rows A 0, B 1,
rhs_indices 2, out 3, GEMMParams 4 (B's batch stride); runs of equal indices are multiplied as one tile slice.

Inputs are multiples of 1/8: every product and sum is exact in float, half and bfloat16 outputs rounded once:
compared exactly."""
import numpy as np

from mlxcase import EXACT, TNAME, Bytes, Out, Scalar, float_buffer, gemm_params, i32, i64, reference, rng

ref = reference("steel/gemm/kernels/steel_gemm_gather.metal")
r = rng(1507)


def tiles(dt, ta, tb, devc):
    """GEMM_TPARAM_MACRO for a large device ('d') and M * N * batch under 2^20, or a small one ('g'): (bm, bn, bk,
    wm, wn)."""
    nt = not ta and tb
    if devc == "g":
        assert nt or dt == np.float32
        return (64, 32, 32, 2, 2) if nt else (64, 64, 16, 2, 2)
    if dt == np.float32:
        return (32, 64, 16, 1, 2) if nt else (64, 32, 32, 2, 2)
    assert nt, "half and bfloat16 tn/nn/tt take the 64 x 64 x 16 wm 1 wn 2 tile (minutes on lavapipe)"
    return (64, 32, 32, 2, 2)


def elem_strides(shape):
    s, acc = [], 1
    for d in reversed(shape):
        s.insert(0, acc)
        acc *= d
    return s


def case(dt, M, N, K, a_batch, b_batch, lhs, rhs, ta=False, tb=False, width=8, devc="d"):
    """A of batch shape A_BATCH, B of B_BATCH; LHS, RHS the index arrays (broadcast together)."""
    assert min(M, N) > 15
    BM, BN, BK, WM, WN = tiles(dt, ta, tb, devc)
    a64 = r.integers(-8, 9, a_batch + ((K, M) if ta else (M, K))) / 8.0
    b64 = r.integers(-8, 9, b_batch + ((N, K) if tb else (K, N))) / 8.0
    a_mat = np.swapaxes(a64, -1, -2) if ta else a64
    b_mat = np.swapaxes(b64, -1, -2) if tb else b64
    lhs, rhs = np.asarray(lhs, dtype=np.uint32), np.asarray(rhs, dtype=np.uint32)
    lb, rb = np.broadcast_arrays(lhs, rhs)
    A2 = a_mat.reshape((-1, M, K))
    B2 = b_mat.reshape((-1, K, N))
    want = np.stack([A2[i] @ B2[j] for i, j in zip(lb.reshape(-1), rb.reshape(-1))])
    batch_ndim = lb.ndim

    def bstrides(idx):   # element strides of an index array broadcast to the output's batch shape
        s = elem_strides(idx.shape)
        return [0 if (idx.shape[i] == 1 and lb.shape[i] > 1) else s[i] for i in range(batch_ndim)]
    ls, rs = bstrides(lhs), bstrides(rhs)
    # the view strides of A and B as the kernel sees them (a transposed operand: its last two axes swapped)
    a_str = elem_strides(a64.shape)
    b_str = elem_strides(b64.shape)
    if ta:
        a_str[-1], a_str[-2] = a_str[-2], a_str[-1]
    if tb:
        b_str[-1], b_str[-2] = b_str[-2], b_str[-1]
    params = gemm_params(M, N, K, M if ta else K, K if tb else N, N, -(-N // BN), -(-M // BM), ls[0], rs[0], M * N,
                         0, K // BK, batch_ndim)
    bufs = {0: float_buffer(a64, dt).reshape(-1), 1: float_buffer(b64, dt).reshape(-1), 2: lhs.reshape(-1),
            3: rhs.reshape(-1), 4: Out(float_buffer(want, dt).reshape(-1), tol=EXACT, bf16=dt == "bf16"),
            5: Bytes(params), 6: i32(lb.shape), 7: i64(ls), 8: i64(rs), 9: Scalar("int", len(a_batch)),
            10: i32(a_mat.shape), 11: i64(a_str), 12: Scalar("int", len(b_batch)), 13: i32(b_mat.shape),
            14: i64(b_str)}
    consts = {10: Scalar("bool", batch_ndim > 1), 200: Scalar("bool", M % BM == 0),
              201: Scalar("bool", N % BN == 0), 202: Scalar("bool", K % BK == 0)}
    tname = TNAME[dt]
    entry = "steel_gather_mm_%s%s_%s_%s_bm%d_bn%d_bk%d_wm%d_wn%d" % (
        "t" if ta else "n", "t" if tb else "n", tname, tname, BM, BN, BK, WM, WN)
    name = "mlx_gather_mm_%s%s_%s_%dx%dx%d_idx%s%s%s" % (
        "t" if ta else "n", "t" if tb else "n", tname, M, N, K, "x".join(map(str, lb.shape)),
        "_w%d" % width if width != 8 else "", "" if devc == "d" else "_" + devc)
    ref.case(name, entry, bufs, threadgroup=(32, WN, WM), threadgroups=(-(-N // BN), -(-M // BM), lb.size),
             constants=consts, width=width)


def case_rhs(dt, rows, N, K, n_b, tb=False, width=8):
    """ROWS vectors of K (A: rows x 1 x K) times B[rhs[i]] of N_B matrices, rhs sorted."""
    BM, BN, BK = 16, 64, 16
    a64 = r.integers(-8, 9, (rows, 1, K)) / 8.0
    b64 = r.integers(-8, 9, (n_b, N, K) if tb else (n_b, K, N)) / 8.0
    b_mat = np.swapaxes(b64, -1, -2) if tb else b64
    rhs = np.sort(r.integers(0, n_b, rows)).astype(np.uint32)
    want = np.stack([a64[i] @ b_mat[j] for i, j in enumerate(rhs)])   # rows x 1 x N
    params = gemm_params(rows, N, K, K, K if tb else N, N, -(-N // BN), -(-rows // BM), 0, N * K, 0, 0, K // BK, 0)
    bufs = {0: float_buffer(a64, dt).reshape(-1), 1: float_buffer(b64, dt).reshape(-1), 2: rhs,
            3: Out(float_buffer(want, dt).reshape(-1), tol=EXACT, bf16=dt == "bf16"), 4: Bytes(params)}
    consts = {200: Scalar("bool", rows % BM == 0), 201: Scalar("bool", N % BN == 0),
              202: Scalar("bool", K % BK == 0)}
    tname = TNAME[dt]
    entry = "steel_gather_mm_rhs_n%s_%s_%s_bm16_bn64_bk16_wm1_wn2" % ("t" if tb else "n", tname, tname)
    name = "mlx_gather_mm_rhs_n%s_%s_%dx%dx%d_of%d%s" % ("t" if tb else "n", tname, rows, N, K, n_b,
                                                       "_w%d" % width if width != 8 else "")
    ref.case(name, entry, bufs, threadgroup=(32, 2, 1), threadgroups=(-(-N // BN), -(-rows // BM), 1),
             constants=consts, width=width)


# gather_mm: one index dimension (batch strides in GEMMParams), then two with broadcast (has_batch)
case(np.float32, 40, 50, 40, (3,), (4,), [2, 0, 1, 2, 0], [3, 1, 0, 3, 2])
case(np.float32, 20, 30, 24, (2, 2), (3,), [[1], [3]], [[0, 2, 1]], tb=True, devc="g")
case(np.float16, 36, 40, 48, (2,), (2,), [1, 0, 1], [0, 0, 1], tb=True)
# gather_mm_rhs: sorted indices whose runs cross the 16-row tiles
case_rhs(np.float32, 37, 70, 40, 4)
case_rhs(np.float16, 20, 64, 32, 3, tb=True)

if __name__ == "__main__":
    raise SystemExit(ref.main())
