#!/usr/bin/python3
"""Reference for samples/specs/rmsnorm.json (MLX form): RMSNorm with simd_sum, one SIMD-group per row; eps is a
0-d input (MLX: `const constant float& eps`); at every SIMD width of tests/ref/refcase.py."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import WIDTHS, Out, Reference, rng  # noqa: E402

ref = Reference("specs/rmsnorm.json")
r = rng(63)
for width in WIDTHS:
    for rows, d in ((6, 300), (3, 20)):
        x = r.standard_normal((rows, d)).astype(np.float32)
        w = r.uniform(0.5, 1.5, d).astype(np.float32)
        eps = np.array(1e-5, dtype=np.float32)
        x64 = x.astype(np.float64)
        y = x64 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + 1e-5) * w
        ref.case("spec_rmsnorm_%dx%d_w%d" % (rows, d, width), None,
                 {"x": x, "w": w, "eps": eps, "out": Out(y.astype(np.float32), tol={"rtol": 1e-5, "atol": 1e-6})},
                 threadgroup=32, grid=(32, rows), width=width)

if __name__ == "__main__":
    raise SystemExit(ref.main())
