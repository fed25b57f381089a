#!/usr/bin/python3
"""Reference for samples/specs/layernorm.json (MLX form): two-pass LayerNorm, one threadgroup per row; at every
SIMD width of tests/ref/refcase.py."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import WIDTHS, Out, Reference, rng  # noqa: E402

ref = Reference("specs/layernorm.json")
r = rng(65)
for width in WIDTHS:
    for rows, d, tg in ((4, 768, 256), (3, 50, 40)):
        x = (r.standard_normal((rows, d)) * 3 + 7).astype(np.float32)
        w = r.uniform(0.5, 1.5, d).astype(np.float32)
        b = r.uniform(-1, 1, d).astype(np.float32)
        x64 = x.astype(np.float64)
        mean = x64.mean(axis=1, keepdims=True)
        var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
        y = (x64 - mean) / np.sqrt(var + 1e-5) * w + b
        ref.case("spec_layernorm_%dx%d_tg%d_w%d" % (rows, d, tg, width), None,
                 {"x": x, "w": w, "b": b, "eps": np.array(1e-5, dtype=np.float32),
                  "out": Out(y.astype(np.float32), tol={"rtol": 1e-4, "atol": 1e-5})},
                 threadgroup=tg, grid=(tg, rows), width=width)

if __name__ == "__main__":
    raise SystemExit(ref.main())
