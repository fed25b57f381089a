#!/usr/bin/python3
"""MLX's unary kernels (kernels/unary.metal, launched by mlx/backend/metal/unary.cpp) against NumPy.

Contiguous input: `v_OP<in><out>` (one element a thread) or `vn_...` (8 bytes of elements a thread, chosen from
65,536 elements on), arguments in, out, size (int) at 0-2, a 1-D grid of ceil(size / work) threads in groups of
min(1024, threads). Strided input (collapsed to its non-contiguous dimensions): `gn1_...` with in, out, shape
(int32[ndim]), strides (int64[ndim]), ndim (int, a device reference) at 0-4, a grid of (shape[-1], shape[-2], rest)
threads in get_block_dims groups.
"""
import numpy as np

from mlxcase import (BF16, F16, F32_TRANSCENDENTAL, TNAME, Out, as_dtype, block_dims, i32, i64, reference, rng,
                     strides_of, values, work_per_thread)

ref = reference("unary.metal")
r = rng(401)


def erf(x):
    from math import erf as e
    return np.vectorize(e)(np.asarray(x, dtype=np.float64))


OPS = {
    "Abs": (np.abs, (-50, 50)),
    "Exp": (np.exp, (-8, 8)),
    "Sigmoid": (lambda x: 1 / (1 + np.exp(-x)), (-12, 12)),
    "Erf": (erf, (-3, 3)),
}
TOL = {np.float32: F32_TRANSCENDENTAL, np.float16: F16, "bf16": BF16}


def expected(op, x, dt):
    y = OPS[op][0](values(x, dt).astype(np.float64))
    return as_dtype(y, dt)


def contiguous(op, dt, n):
    lo, hi = OPS[op][1]
    x = as_dtype(r.uniform(lo, hi, n), dt)
    itemsize = 2 if dt in (np.float16, "bf16") else np.dtype(dt).itemsize
    work = work_per_thread(itemsize, n)
    kind = "vn" if work > 1 else "v"
    name = TNAME[dt]
    nthreads = -(-n // work)
    want = expected(op, x, dt)
    ref.case("mlx_unary_%s_%s%s_%d" % (kind, op, name, n), "%s_%s%s%s" % (kind, op, name, name),
             {0: x, 1: Out(want, tol=TOL[dt], bf16=dt == "bf16"), 2: np.asarray([n], dtype=np.uint32)},
             threadgroup=min(1024, nthreads), grid=nthreads)


def general(op, dt, shape, perm):
    """A transposed view of a C-contiguous array: MLX's general kernel reads it through its strides."""
    lo, hi = OPS[op][1]
    base = as_dtype(r.uniform(lo, hi, shape), dt)
    view = base.transpose(perm)
    # collapse_contiguous_dims keeps dimensions that cannot merge; these permutations merge none
    shp, st = list(view.shape), strides_of(view)
    ndim = len(shp)
    dim0 = shp[-1]
    dim1 = shp[-2] if ndim > 1 else 1
    rest = view.size // (dim0 * dim1)
    want = expected(op, np.ascontiguousarray(view), dt)
    name = TNAME[dt]
    ref.case("mlx_unary_gn1_%s%s_%s" % (op, name, "x".join(map(str, shp))), "gn1_%s%s%s" % (op, name, name),
             {0: base.reshape(-1), 1: Out(want.reshape(-1), tol=TOL[dt], bf16=dt == "bf16"), 2: i32(shp),
              3: i64(st), 4: i32([ndim])},
             threadgroup=block_dims(dim0, dim1, rest), grid=(dim0, dim1, rest))


contiguous("Abs", np.float32, 1000)
contiguous("Exp", np.float32, 70001)       # 2 floats a thread (vn_), the last thread has one
contiguous("Exp", np.float16, 70003)       # 4 halves a thread
contiguous("Sigmoid", np.float32, 4097)
contiguous("Sigmoid", "bf16", 777)
contiguous("Erf", np.float32, 3001)
general("Abs", np.float32, (37, 53), (1, 0))
general("Sigmoid", np.float32, (5, 7, 9), (2, 0, 1))
general("Erf", np.float16, (3, 4, 5, 6), (3, 1, 0, 2))
general("Exp", "bf16", (19, 23), (1, 0))

if __name__ == "__main__":
    raise SystemExit(ref.main())
