#!/usr/bin/python3
"""Reference for samples/specs/rope.json (MLX form): multi-head RoPE over (B, H, S, D) on a 3-D grid."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import Out, Reference, rng  # noqa: E402

ref = Reference("specs/rope.json")
r = rng(66)
for (b, h, s, d), tg in (((2, 4, 16, 64), (32, 4, 2)), ((1, 3, 10, 24), (8, 3, 3))):
    x = r.standard_normal((b, h, s, d)).astype(np.float32)
    half = d // 2
    theta = np.arange(s)[:, None] * (10000.0 ** (-np.arange(half) / half))[None, :]
    c, sn = np.cos(theta).astype(np.float32), np.sin(theta).astype(np.float32)
    x64, c64, s64 = x.astype(np.float64), c.astype(np.float64), sn.astype(np.float64)
    x1, x2 = x64[..., :half], x64[..., half:]
    y = np.concatenate([x1 * c64 - x2 * s64, x1 * s64 + x2 * c64], axis=-1)
    ref.case("spec_rope_%dx%dx%dx%d" % (b, h, s, d), None,
             {"x": x, "cos_t": c, "sin_t": sn, "out": Out(y.astype(np.float32), tol={"rtol": 1e-5, "atol": 1e-6})},
             threadgroup=tg, grid=(half, s, b * h))

if __name__ == "__main__":
    raise SystemExit(ref.main())
