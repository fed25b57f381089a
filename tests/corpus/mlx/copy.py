#!/usr/bin/python3
"""MLX's copy kernels (kernels/copy.metal, launched by mlx/backend/metal/copy.cpp, copy_gpu_inplace) against NumPy,
including type conversion. Contiguous: `v_copy<in><out>` / `vn_` (8 bytes a thread from 65,536 elements) and
`s_copy` (a scalar filled in), src, dst, size (uint) at 0-2, 1-D grid in groups of min(1024, threads). Strided
source (collapse_contiguous_dims): `g1_`..`g3_copy` with the source strides (int64) at 3, grid (shape[-1],
shape[-2], rest); `gn2_copy` beyond three dimensions: shape (int32[n]) at 2, strides at 3, ndim (int) at 5, two
elements a thread; get_block_dims groups."""
import numpy as np

from binary import collapse
from mlxcase import EXACT, F16, TNAME, Out, Scalar, as_dtype, block_dims, i32, i64, reference, rng, strides_of, values, work_per_thread

ref = reference("copy.metal")
r = rng(407)


def convert(x, src_dt, dst_dt):
    if dst_dt in (np.int32, np.uint32, np.int8, np.uint8, np.int64):
        return values(x, src_dt).astype(np.float64).astype(np.int64).astype(dst_dt)   # C conversion: truncation
    return as_dtype(values(x, src_dt).astype(np.float64), dst_dt)


def tol(dt):
    return F16 if dt == np.float16 else EXACT


def contiguous(kind, src_dt, dst_dt, n):
    x = as_dtype(r.uniform(-100, 100, 1 if kind == "s" else n), src_dt)
    want = convert(np.broadcast_to(x, n), src_dt, dst_dt)
    itemsize = 2 if dst_dt in (np.float16, "bf16") else np.dtype(dst_dt).itemsize
    work = work_per_thread(itemsize, n)
    name = "%s%s_copy%s%s" % (kind, "n" if work > 1 else "", TNAME[src_dt], TNAME[dst_dt])
    nthreads = -(-n // work)
    ref.case("mlx_%s_%d" % (name, n), name,
             {0: x, 1: Out(want, tol=tol(dst_dt), bf16=dst_dt == "bf16"), 2: np.asarray([n], np.uint32)},
             threadgroup=min(1024, nthreads), grid=nthreads)


def general(src_dt, dst_dt, shape, perm):
    base = as_dtype(r.uniform(-100, 100, shape), src_dt)
    view = base.transpose(perm)
    want = convert(np.ascontiguousarray(view), src_dt, dst_dt).reshape(-1)
    shp, (st, _) = collapse(list(view.shape), [strides_of(view), strides_of(np.ascontiguousarray(view))])
    ndim = len(shp)
    dim0, dim1 = shp[-1], (shp[-2] if ndim > 1 else 1)
    rest = view.size // (dim0 * dim1)
    bufs = {0: base.reshape(-1), 1: Out(want, tol=tol(dst_dt), bf16=dst_dt == "bf16")}
    if ndim <= 3:
        name = "g%d_copy%s%s" % (ndim, TNAME[src_dt], TNAME[dst_dt])
        bufs[3] = Scalar("long", st[0]) if ndim == 1 else i64(st)
    else:
        name = "gn2_copy%s%s" % (TNAME[src_dt], TNAME[dst_dt])
        dim0 = -(-dim0 // 2)
        bufs.update({2: i32(shp), 3: i64(st), 5: Scalar("int", ndim)})
    ref.case("mlx_%s_%s" % (name, "x".join(map(str, view.shape))), name, bufs,
             threadgroup=block_dims(dim0, dim1, rest), grid=(dim0, dim1, rest))


contiguous("v", np.float32, np.float16, 1003)
contiguous("v", np.float16, np.float32, 517)
contiguous("v", np.float32, "bf16", 300)
contiguous("v", np.float32, np.int32, 250)
contiguous("v", np.float32, np.float32, 70001)    # vn_: 2 a thread
contiguous("s", np.float32, np.float32, 999)
general(np.float32, np.float32, (33, 47), (1, 0))
general(np.float16, np.float32, (4, 5, 6), (2, 0, 1))
general(np.float32, np.float16, (3, 4, 5, 7), (3, 1, 0, 2))   # gn2_: odd last dimension
general(np.int32, np.float32, (9, 10), (1, 0))

if __name__ == "__main__":
    raise SystemExit(ref.main())
