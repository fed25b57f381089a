#!/usr/bin/python3
"""Reference for samples/specs/strided.json (MLX form, ensure_row_contiguous false): out = 2 x read through
x_shape / x_strides / x_ndim, for a contiguous input and transposed views of rank 2 and 3 bound as stored."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import EXACT, Out, Reference, View, rng  # noqa: E402

ref = Reference("specs/strided.json")
r = rng(68)
x = r.standard_normal((30, 40)).astype(np.float32)
ref.case("spec_strided_contiguous", None, {"x": x, "out": Out(2 * x, tol=EXACT)}, threadgroup=64, grid=x.size)
base = r.standard_normal((40, 30)).astype(np.float32)
v = View(base, (1, 0))
ref.case("spec_strided_transposed", None, {"x": v, "out": Out(2 * v.array(), tol=EXACT)}, threadgroup=64,
         grid=base.size)
base3 = r.standard_normal((4, 5, 6)).astype(np.float32)
v3 = View(base3, (2, 0, 1))
ref.case("spec_strided_transposed_3d", None, {"x": v3, "out": Out(2 * v3.array(), tol=EXACT)}, threadgroup=32,
         grid=base3.size)

if __name__ == "__main__":
    raise SystemExit(ref.main())
