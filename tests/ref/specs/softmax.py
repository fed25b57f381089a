#!/usr/bin/python3
"""Reference for samples/specs/softmax.json (MLX form): stable softmax, one threadgroup per row, reductions
across SIMD-groups through threadgroup memory; at every SIMD width of tests/ref/refcase.py."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import WIDTHS, Out, Reference, rng  # noqa: E402

ref = Reference("specs/softmax.json")
r = rng(64)
for width in WIDTHS:
    for rows, cols, tg in ((3, 1000, 128), (4, 40, 48)):
        x = (r.standard_normal((rows, cols)) * 10 + 50).astype(np.float32)
        x64 = x.astype(np.float64)
        e = np.exp(x64 - x64.max(axis=1, keepdims=True))
        y = e / e.sum(axis=1, keepdims=True)
        ref.case("spec_softmax_%dx%d_tg%d_w%d" % (rows, cols, tg, width), None,
                 {"x": x, "out": Out(y.astype(np.float32), tol={"rtol": 1e-4, "atol": 1e-7})},
                 threadgroup=tg, grid=(tg, rows), width=width)
# threadgroup (256, 1) on a grid of (96, 2): MLX clamps it to (96, 1), one row per threadgroup as the body expects
x = (r.standard_normal((2, 300)) * 10 + 50).astype(np.float32)
e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
ref.case("spec_softmax_threadgroup_clamped", None,
         {"x": x, "out": Out((e / e.sum(axis=1, keepdims=True)).astype(np.float32), tol={"rtol": 1e-4, "atol": 1e-7})},
         threadgroup=(256, 1), grid=(96, 2), width=8)

if __name__ == "__main__":
    raise SystemExit(ref.main())
