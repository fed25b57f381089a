#!/usr/bin/python3
"""MLX's segmented GEMM on SIMD-group matrices (kernels/steel/gemm/kernels/steel_gemm_segmented.metal, launched by
segmented_mm in mlx/backend/metal/matmul.cpp for mx.segmented_mm) against NumPy: for each segment s = (k_start,
k_end) of K, D[s] = A[:, k_start:k_end] @ B[k_start:k_end, :] (an empty segment gives zeros). A is M x K (K x M
when transposed), B K x N (N x K), segments (..., 2) uint32, D (..., M, N).

`steel_segmented_mm_<nn|nt|tn|tt>_<T>_<T>_bm.._bn.._bk.._wm.._wn..` with the tiles GEMM_TPARAM_MACRO picks (batch
= the number of segments): a large device ('d') and M * N * segments under 2^20: float32 nn/tn/tt bm 64, bn 32,
bk 32, wm 2, wn 2; half and bfloat16 nt the same tile; a small device ('g'): nt of every type the same tile too
(float32 nt on 'd' takes 32 x 64 x 16 wm 1 wn 2 and half nn 64 x 64 x 16 wm 1 wn 2: 16 fragments a SIMD-group,
which lavapipe takes minutes to compile). Threadgroups (32, wn, wm), grid (tiles_n, tiles_m, segments). Buffers:
A 0, B 1, segments 2, D 3, GEMMParams 4 (batch strides of A and B 0, of D M * N, batch_ndim 0). Function
constants: segments_contiguous 199 (false where the segments are a view whose last two strides are 1, i.e. the
boundaries b with segment i = (b[i], b[i + 1]): the host binds the boundaries and the kernel reads them so),
align_M 200, align_N 201 (K is never aligned: segments start and end anywhere, and the last partial step of each
is loaded with bounds).

Inputs are multiples of 1/8 with few significant bits: every product and partial sum is exact in float32, the
accumulator, and half and bfloat16 outputs are that exact value rounded once: compared exactly."""
import numpy as np

from mlxcase import EXACT, TNAME, Bytes, Out, Scalar, float_buffer, gemm_params, reference, rng

ref = reference("steel/gemm/kernels/steel_gemm_segmented.metal")
r = rng(1524)


def tiles(dt, ta, tb, devc):
    """GEMM_TPARAM_MACRO's (bm, bn, bk, wm, wn) for the tiles these cases use (see above)."""
    nt = not ta and tb
    if devc == "g":
        assert nt, "a small device's other tiles hold 16 fragments a SIMD-group"
        return (64, 32, 32, 2, 2)
    assert (dt == np.float32) != nt, "the large device's tile here holds 16 fragments a SIMD-group"
    return (64, 32, 32, 2, 2)


def case(dt, M, N, K, segments, ta=False, tb=False, boundaries=False, devc="d", width=8):
    """SEGMENTS: a list (or nested lists) of (k_start, k_end) pairs; BOUNDARIES: given as the boundaries b (the
    segments (b[i], b[i + 1]), a strided view: segments_contiguous false)."""
    BM, BN, BK, WM, WN = tiles(dt, ta, tb, devc)
    if boundaries:
        bounds = np.asarray(segments, dtype=np.uint32)
        seg = np.stack([bounds[:-1], bounds[1:]], axis=-1)
    else:
        seg = np.asarray(segments, dtype=np.uint32)
    assert seg.shape[-1] == 2 and np.all(seg[..., 0] <= seg[..., 1]) and np.all(seg <= K)
    nseg = seg.size // 2
    assert nseg * M * N < (1 << 20)
    a64 = r.integers(-8, 9, (K, M) if ta else (M, K)) / 8.0
    b64 = r.integers(-8, 9, (N, K) if tb else (K, N)) / 8.0
    a_mat = a64.T if ta else a64
    b_mat = b64.T if tb else b64
    flat = seg.reshape(-1, 2)
    want = np.stack([a_mat[:, s:e] @ b_mat[s:e, :] for s, e in flat]).reshape(seg.shape[:-1] + (M, N))

    tiles_n, tiles_m = -(-N // BN), -(-M // BM)
    # segmented_mm's GEMMParams: lda, ldb the operands' leading dimensions, no batch strides for A and B, K
    # iterations 0 (the kernel walks each segment itself), batch_ndim 0
    params = gemm_params(M, N, K, M if ta else K, K if tb else N, N, tiles_n, tiles_m, 0, 0, M * N, 0, 0, 0)
    bufs = {0: float_buffer(a64, dt).reshape(-1), 1: float_buffer(b64, dt).reshape(-1),
            2: bounds if boundaries else seg.reshape(-1),
            3: Out(float_buffer(want, dt).reshape(-1), tol=EXACT, bf16=dt == "bf16"), 4: Bytes(params)}
    consts = {199: Scalar("bool", not boundaries), 200: Scalar("bool", M % BM == 0),
              201: Scalar("bool", N % BN == 0)}
    tname = TNAME[dt]
    trans = ("t" if ta else "n") + ("t" if tb else "n")
    entry = "steel_segmented_mm_%s_%s_%s_bm%d_bn%d_bk%d_wm%d_wn%d" % (trans, tname, tname, BM, BN, BK, WM, WN)
    name = "mlx_segmented_%s_%s_%dx%dx%d_s%s%s%s%s" % (
        trans, tname, M, N, K, "x".join(map(str, seg.shape[:-1])), "_bounds" if boundaries else "",
        "" if devc == "d" else "_" + devc, "_w%d" % width if width != 8 else "")
    ref.case(name, entry, bufs, threadgroup=(32, WN, WM), threadgroups=(tiles_n, tiles_m, nseg), constants=consts,
             width=width)


# lavapipe's 8-wide subgroups (Metal's 32 lanes emulated across them), one case on 32-wide virtual subgroups: there
# lavapipe compiles a kernel with M or N unaligned (its four branches) for more than 300 s
# uneven segments, one empty in the middle and one empty at the end, one shorter than bk: nothing aligned
case(np.float32, 70, 40, 100, [(0, 37), (37, 37), (37, 45), (45, 100), (100, 100)])
# segments out of order and overlapping, starting at odd k (unaligned vector loads); M and N aligned (one branch
# of the kernel's four: on 32-wide virtual subgroups)
case(np.float32, 64, 32, 90, [(5, 72), (0, 17), (33, 90)], ta=True, width=32)
# the boundaries as a strided view (segments_contiguous false): 0, 20, 20, 51, 64
case(np.float32, 40, 64, 64, [0, 20, 20, 51, 64], ta=True, tb=True, boundaries=True)
# half nt, a 2 x 2 batch of segments (D of shape (2, 2, M, N)): M aligned, N not; segments of 32 (exactly bk),
# 1 and the rest; an empty one at 0
case(np.float16, 64, 45, 96, [[(0, 32), (32, 33)], [(33, 96), (0, 0)]], tb=True)
# float32 nt on a small device's tile (a large one's holds 16 fragments a SIMD-group), 2 x 2 tiles; M and N
# aligned here and below (lavapipe compiles the kernel's one branch in seconds, its four in a minute or more)
case(np.float32, 64, 64, 48, [(16, 48), (3, 4)], tb=True, devc="g")
# bfloat16 nt: one segment the whole of K, two that split it at an odd k
case("bf16", 64, 32, 80, [(0, 80), (10, 41), (41, 80)], tb=True)

if __name__ == "__main__":
    raise SystemExit(ref.main())
