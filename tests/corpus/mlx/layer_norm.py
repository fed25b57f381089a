#!/usr/bin/python3
"""MLX's layer norm (kernels/layer_norm.metal, launched by mlx/backend/metal/normalization.cpp) against NumPy:
out = w * T((x - mean) * rsqrt(var + eps)) + b per row, in float. `layer_norm<type>` up to 6656 columns (8 a
thread), `layer_norm_looped<type>` past it (4 a thread, 1024 threads); x, w, b, out, eps (float), axis_size,
w_stride, b_stride (uint) at 0-7. Run at each SIMD width the tests use."""
import numpy as np

from mlxcase import BF16, F16, TNAME, Out, Scalar, as_dtype, reference, rng, rounded, row_launch, values

ref = reference("layer_norm.metal")
r = rng(406)
TOL = {np.float32: {"rtol": 1e-5, "atol": 2e-6}, np.float16: F16, "bf16": BF16}


def case(dt, rows, axis, eps=1e-5, width=None, b_stride=1):
    x = as_dtype(r.uniform(-3, 5, (rows, axis)), dt)
    w = as_dtype(r.uniform(0.5, 1.5, axis), dt)
    b = as_dtype(r.uniform(-1, 1, axis if b_stride else 1), dt)
    v = values(x, dt).astype(np.float64)
    mean = v.mean(axis=1, keepdims=True)
    inv = 1 / np.sqrt(((v - mean) ** 2).mean(axis=1, keepdims=True) + np.float32(eps))
    bb = np.broadcast_to(values(b, dt).astype(np.float64), (axis,))
    # w * T(y) is rounded to T, then + b: two roundings in half and bfloat16
    want = as_dtype(rounded(values(w, dt).astype(np.float64) * rounded((v - mean) * inv, dt), dt) + bb, dt)
    looped, tg, n = row_launch(axis, rows, 8, 6656)
    entry = "layer_norm%s%s" % ("_looped" if looped else "", TNAME[dt])
    ref.case("mlx_%s_%dx%d%s" % (entry, rows, axis, "_w%d" % width if width else ""), entry,
             {0: x.reshape(-1), 1: w, 2: b, 3: Out(want.reshape(-1), tol=TOL[dt], bf16=dt == "bf16"),
              4: Scalar("float", np.float32(eps)), 5: Scalar("uint", axis), 6: Scalar("uint", 1),
              7: Scalar("uint", b_stride)},
             threadgroup=tg, grid=n, width=width)


for wd in (8, 16, 32, 64):
    case(np.float32, 3, 2050, width=wd)
case(np.float32, 2, 7001)                 # looped
case(np.float16, 4, 517, b_stride=0)
case("bf16", 2, 96)

if __name__ == "__main__":
    raise SystemExit(ref.main())
