#!/usr/bin/python3
"""MLX's matrix-vector products (kernels/gemv.metal, launched by gemv_axbpy in mlx/backend/metal/matmul.cpp)
against NumPy. A matmul with one side a vector (M or N is 1, and not the gemv_wide route: half types with M > 1)
runs `gemv_<type>_bm_bn_sm_sn_tm_tn_nc_axpby0` where the matrix is not transposed (out = mat @ vec: a (M, K)
row-major times b (K, 1)) and `gemv_t_...` where it is (out = vec @ mat: a (1, K) times b (K, N) row-major).
mat, vec, out at 0, 1, 3; in_vec_size, out_vec_size, matrix_ld (int) at 4-6; batch_ndim (int), batch_shape,
vector and matrix batch strides (int64) at 9-12 (bias, alpha, beta at 2, 7, 8, 13, 14 only with axpby: the host binds none of them here, the kernel reads none;
zeros, as mtlrun binds every buffer).
The host picks the tile: gemv bm 4 (8 from 4096 outputs), sm 1, sn 32, or bm 1, sm 8, sn 4 for K up to 64, or bm 1,
bn 8 for K at least 16 outputs; tm 1 under 4 outputs. gemv_t sm 8, sn 4 (4, 8 for K >= 8192 with N >= 2048), bn 2,
4 from 512 outputs, 16 from 2048; tn 1 under 4 outputs. Threadgroups (32, bn, bm), grid (ceil(out / (bm sm tm))
or ceil(out / (bn sn tn)), 1, batch). nc1 where the batch dimensions do not collapse to one (batch_ndim 2 here).
Small-integer inputs keep every sum exact (float accumulation; half outputs stay under 2048). SIMD-group
reductions: one case of each kernel at every width the tests use."""
import numpy as np

from mlxcase import EXACT, TNAME, Out, Scalar, i32, i64, reference, rng

ref = reference("gemv.metal")
r = rng(415)


def tile(transposed, K, n_out):
    if transposed:
        bm, tm = 1, 4
        sm, sn = (4, 8) if K >= 8192 and n_out >= 2048 else (8, 4)
        bn = 16 if n_out >= 2048 else 4 if n_out >= 512 else 2
        tn = 1 if n_out < 4 else 4
        return bm, bn, sm, sn, tm, tn, bn * sn * tn
    bm, bn, sm, sn, tn = (8 if n_out >= 4096 else 4), 1, 1, 32, 4
    if K <= 64:
        bm, sm, sn = 1, 8, 4
    elif K >= 16 * n_out:
        bm, bn = 1, 8
    tm = 1 if n_out < 4 else 4
    return bm, bn, sm, sn, tm, tn, bm * sm * tm


def ints(dt, shape, lo=-3, hi=4):
    return r.integers(lo, hi, size=shape).astype(dt)


def case(dt, transposed, K, n_out, batch=(), mat_batch=None, vec_batch=None, width=None, lo=-3, hi=4):
    """batch: the output's batch shape; mat_batch / vec_batch: which batch axes the matrix / vector has (a size-1 axis
    broadcast with stride 0 where absent)."""
    bshape = list(batch) or [1]
    mat_batch = mat_batch if mat_batch is not None else [True] * len(bshape)
    vec_batch = vec_batch if vec_batch is not None else [True] * len(bshape)
    mshape = [b if m else 1 for b, m in zip(bshape, mat_batch)] + ([K, n_out] if transposed else [n_out, K])
    vshape = [b if v else 1 for b, v in zip(bshape, vec_batch)] + [K]
    mat, vec = ints(dt, mshape, lo, hi), ints(dt, vshape, lo, hi)
    m64, v64 = mat.astype(np.float64), vec.astype(np.float64)
    want = (np.einsum("...kn,...k->...n", m64, v64) if transposed else np.einsum("...nk,...k->...n", m64, v64))
    want = np.broadcast_to(want, bshape + [n_out]).astype(dt)

    def bstrides(shape, present, inner):
        st, acc = [], inner
        for s, p in zip(reversed(shape[:len(bshape)]), reversed(present)):
            st.insert(0, acc if p and s > 1 else 0)
            acc *= s
        return st
    mst = bstrides(mshape, mat_batch, K * n_out)
    vst = bstrides(vshape, vec_batch, K)
    nc = len(bshape) > 1
    bm, bn, sm, sn, tm, tn, per_tg = tile(transposed, K, n_out)
    entry = "gemv_%s%s_bm%d_bn%d_sm%d_sn%d_tm%d_tn%d_nc%d_axpby0" % (
        "t_" if transposed else "", TNAME[dt], bm, bn, sm, sn, tm, tn, nc)
    name = "mlx_%s_K%d_N%d%s%s" % (entry, K, n_out, "_b" + "x".join(map(str, batch)) if batch else "",
                                  "_w%d" % width if width else "")
    ref.case(name, entry, {0: mat.reshape(-1), 1: vec.reshape(-1), 3: Out(want.reshape(-1), tol=EXACT),
                           4: Scalar("int", K), 5: Scalar("int", n_out), 6: Scalar("int", n_out if transposed else K),
                           9: Scalar("int", len(bshape)), 10: i32(bshape), 11: i64(vst), 12: i64(mst),
                           # axpby's bias, alpha, beta: unbound by the host, unread; zeros (mtlrun binds every buffer)
                           2: np.zeros(1, dt), 7: Scalar("float", 0.0), 8: Scalar("float", 0.0), 13: i64([0]),
                           14: Scalar("int", 0)},
             threadgroup=(32, bn, bm), threadgroups=(-(-n_out // per_tg), 1, int(np.prod(bshape))), width=width)


# gemv: mat @ vec
for w in (8, 16, 32, 64):
    case(np.float32, False, 300, 37, width=w)              # bm 4: 16 outputs a threadgroup, the last partial
    case(np.float32, True, 300, 77, width=w)               # gemv_t bn 2: 32 outputs a threadgroup
case(np.float32, False, 50, 3)                             # K <= 64: sm 8, sn 4; tm 1
case(np.float16, False, 40, 129)
case(np.float16, False, 1000, 5)                           # K >= 16 outputs: bn 8
case(np.float32, False, 200, 2)                            # bn 8, tm 1
case(np.float32, False, 101, 4099)                         # bm 8
# gemv_t: vec @ mat
case(np.float32, True, 70, 3)                              # tn 1
case(np.float16, True, 129, 600)                           # bn 4
case(np.float16, True, 70, 2050)                           # bn 16
case(np.float16, True, 8192, 2048, lo=-1, hi=2)            # sm 4, sn 8
# batched: one batch axis with strides; two axes, the matrix broadcast over the first (nc1)
case(np.float32, True, 50, 20, batch=(3,))
case(np.float16, False, 70, 9, batch=(2, 3), mat_batch=[True, True], vec_batch=[False, True])
case(np.float32, True, 33, 45, batch=(2, 3), mat_batch=[False, True], vec_batch=[True, True])

if __name__ == "__main__":
    raise SystemExit(ref.main())
