#!/usr/bin/python3
"""Reference for samples/unary.metal: three entry points in one file."""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("unary.metal")
r = rng(7)
n = 1500
x = r.uniform(-3, 3, n).astype(np.float32)
x[:3] = (0.0, -0.0, 1e-30)
ref.case("unary_negate_grid1500_tg128", "negate", {0: x, 1: Out(-x)}, threadgroup=128, grid=n)
ref.case("unary_relu_grid1500_tg100", "relu", {0: x, 1: Out(np.where(x > 0, x, np.float32(0)))},
         threadgroup=100, grid=n)
# compile_shader style: no [[buffer(n)]]: x 0, y 1, lo 2, hi 3 in declaration order.
ref.case("unary_clamp_to_grid1500_tg64", "clamp_to",
         {0: x, 1: Out(np.clip(x, np.float32(-1.5), np.float32(0.75))),
          2: Scalar("float", -1.5), 3: Scalar("float", 0.75)}, threadgroup=64, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
