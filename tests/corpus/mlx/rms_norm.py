#!/usr/bin/python3
"""MLX's RMS norm (kernels/rms_norm.metal, launched by mlx/backend/metal/normalization.cpp) against NumPy:
out = w * T(x * rsqrt(mean(x^2) + eps)) per row, accumulated in float. `rms<type>` up to 4096 columns (4 a thread),
`rms_looped<type>` past it (1024 threads); x, w, out, eps (float), axis_size, w_stride (uint) at 0-5 (w_stride 0:
one weight for every column). Run at each SIMD width the tests use."""
import numpy as np

from mlxcase import BF16, F16, TNAME, Out, Scalar, as_dtype, reference, rng, rounded, row_launch, values

ref = reference("rms_norm.metal")
r = rng(405)
TOL = {np.float32: {"rtol": 1e-5, "atol": 1e-6}, np.float16: F16, "bf16": BF16}


def case(dt, rows, axis, eps=1e-5, w_scalar=False, width=None):
    x = as_dtype(r.uniform(-3, 3, (rows, axis)), dt)
    w = as_dtype(r.uniform(0.5, 1.5, 1 if w_scalar else axis), dt)
    v = values(x, dt).astype(np.float64)
    inv = 1 / np.sqrt((v * v).mean(axis=1, keepdims=True) + np.float32(eps))
    want = as_dtype(values(w, dt).astype(np.float64) * rounded(v * inv, dt), dt)
    looped, tg, n = row_launch(axis, rows, 4, 4096)
    entry = "rms%s%s" % ("_looped" if looped else "", TNAME[dt])
    ref.case("mlx_%s_%dx%d%s%s" % (entry, rows, axis, "_wscalar" if w_scalar else "", "_w%d" % width if width else ""),
             entry, {0: x.reshape(-1), 1: w, 2: Out(want.reshape(-1), tol=TOL[dt], bf16=dt == "bf16"),
                     3: Scalar("float", np.float32(eps)), 4: Scalar("uint", axis), 5: Scalar("uint", 0 if w_scalar else 1)},
             threadgroup=tg, grid=n, width=width)


for wd in (8, 16, 32, 64):
    case(np.float32, 4, 4096, width=wd)
case(np.float32, 3, 999)
case(np.float32, 2, 5003)                 # looped
case(np.float16, 5, 1027)
case("bf16", 3, 260, w_scalar=True)

if __name__ == "__main__":
    raise SystemExit(ref.main())
