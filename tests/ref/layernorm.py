#!/usr/bin/python3
"""Reference for samples/layernorm.metal: two-pass LayerNorm, one threadgroup per row."""
import numpy as np
from refcase import WIDTHS, Out, Reference, Scalar, rng

ref = Reference("layernorm.metal")
r = rng(12)


def add(rows, dim, tg, width):
    x = (r.standard_normal((rows, dim)) * 3 + 5).astype(np.float32)   # an offset mean: the second pass matters
    g = r.uniform(0.5, 1.5, dim).astype(np.float32)
    b = r.uniform(-1, 1, dim).astype(np.float32)
    eps = 2.0 ** -16
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + eps) * g + b
    ref.case("layernorm_r%d_d%d_tg%d_w%d" % (rows, dim, tg, width), "layernorm",
             {0: x, 1: g, 2: b, 3: Out(y.astype(np.float32), tol={"rtol": 1e-4, "atol": 2e-5}),
              4: Scalar("uint", dim), 5: Scalar("float", eps)},
             threadgroup=tg, threadgroups=rows, width=width)


for width in WIDTHS:
    add(4, 1000, 256, width)
    add(3, 77, 80, width)       # the last SIMD-group of each threadgroup has 16 lanes
add(2, 4096, 1024, 8)
add(3, 50, 32, 8)

if __name__ == "__main__":
    raise SystemExit(ref.main())
