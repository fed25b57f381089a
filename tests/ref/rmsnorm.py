#!/usr/bin/python3
"""Reference for samples/rmsnorm.metal: one row per SIMD-group, y = x * rsqrt(mean(x^2) + eps) * weight."""
import numpy as np
from refcase import WIDTHS, Out, Reference, Scalar, rng

ref = Reference("rmsnorm.metal")
r = rng(11)


def add(rows, dim, tg, width, extra_threads=0):
    x = r.standard_normal((rows, dim), dtype=np.float32)
    w = r.uniform(0.5, 1.5, dim).astype(np.float32)
    eps = 2.0 ** -16
    x64 = x.astype(np.float64)
    y = x64 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + eps) * w
    grid = rows * 32 + extra_threads
    name = "rmsnorm_r%d_d%d_tg%d_grid%d_w%d" % (rows, dim, tg, grid, width)
    ref.case(name, "rmsnorm", {0: x, 1: w, 2: Out(y.astype(np.float32), tol={"rtol": 2e-5, "atol": 2e-6}),
                               3: Scalar("uint", rows), 4: Scalar("uint", dim), 5: Scalar("float", eps)},
             threadgroup=tg, grid=grid, width=width)


for width in WIDTHS:
    add(10, 100, 96, width)                      # 320 threads: the last threadgroup holds one SIMD-group
    add(7, 33, 64, width, extra_threads=16)      # a partial SIMD-group past the last row returns at once
add(5, 256, 32, 8)

if __name__ == "__main__":
    raise SystemExit(ref.main())
