#!/usr/bin/python3
"""MLX's argmin/argmax (kernels/arg_reduce.metal, launched by ArgReduce::eval_gpu in
mlx/backend/metal/primitives.cpp) against NumPy: one threadgroup per output element, ceil(min(axis / 4, 1024) / 32)
SIMD-groups reading 4 values a pass; in, out (uint32), shape (int32[n], the reduced axis removed), in_strides,
out_strides (int64[n]), ndim (size_t), axis_stride (int64), axis_size (size_t) at 0-7; grid (threads, rows, 1).
The first index wins ties (values are distinct here but for the integer case). Run at each SIMD width."""
import numpy as np

from mlxcase import EXACT, TNAME, Out, Scalar, as_dtype, i32, i64, reference, rng

ref = reference("arg_reduce.metal")
r = rng(408)


def case(op, dt, shape, axis, width=None):
    if np.dtype(dt).kind == "f":
        x = r.permutation(np.arange(int(np.prod(shape)))).reshape(shape).astype(np.float64) * 0.25 - 100
        x = as_dtype(x, dt)
    else:
        x = r.integers(0, 50, shape).astype(dt)                      # ties: the first index
    want = (np.argmax if op == "argmax" else np.argmin)(x, axis=axis).astype(np.uint32)
    in_strides = [s // x.itemsize for s in x.strides]
    axis_stride, axis_size = in_strides[axis], shape[axis]
    rest_shape = [s for i, s in enumerate(shape) if i != axis]
    rest_in = [s for i, s in enumerate(in_strides) if i != axis]
    out_strides = [int(np.prod(rest_shape[i + 1:])) for i in range(len(rest_shape))]
    tg = min(-(-axis_size // 4), 1024)
    tg = -(-tg // 32) * 32
    rows = int(np.prod(rest_shape))
    entry = "%s_%s" % (op, TNAME[dt])
    ref.case("mlx_%s_%s_axis%d%s" % (entry, "x".join(map(str, shape)), axis, "_w%d" % width if width else ""), entry,
             {0: x.reshape(-1), 1: Out(want.reshape(-1), tol=EXACT), 2: i32(rest_shape), 3: i64(rest_in),
              4: i64(out_strides), 5: Scalar("ulong", len(rest_shape)), 6: Scalar("long", axis_stride),
              7: Scalar("ulong", axis_size)},
             threadgroup=tg, grid=(tg, rows, 1), width=width)


for w in (8, 16, 32, 64):
    case("argmax", np.float32, (7, 300), 1, width=w)
case("argmin", np.float32, (130, 5), 0)           # a strided axis
case("argmax", np.float16, (3, 4, 2000), 2)
case("argmax", np.int32, (9, 77), 1)               # ties
case("argmin", np.uint8, (4, 6, 33), 1)

if __name__ == "__main__":
    raise SystemExit(ref.main())
