#!/usr/bin/python3
"""Reference for samples/specs/silu_2d.json (MLX form): SiLU over a 2-D grid, at float32 and float16; one case
with a transposed input, which MLX (ensure_row_contiguous=True) copies row-contiguous before the run."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import TRANSCENDENTAL_TOL, Out, Reference, View, rng  # noqa: E402

ref = Reference("specs/silu_2d.json")
r = rng(62)


def silu(x):
    x64 = x.astype(np.float64)
    return x64 / (1.0 + np.exp(-x64))


for rows, cols, tg in ((48, 100, (32, 8)), (7, 333, (64, 2))):
    x = r.uniform(-20, 20, (rows, cols)).astype(np.float32)
    ref.case("spec_silu_2d_%dx%d" % (rows, cols), None,
             {"x": x, "out": Out(silu(x).astype(np.float32), tol=TRANSCENDENTAL_TOL)},
             threadgroup=tg, grid=(cols, rows), template=[("T", "float32")])
xh = r.uniform(-8, 8, (16, 130)).astype(np.float16)
ref.case("spec_silu_2d_half", None, {"x": xh, "out": Out(silu(xh).astype(np.float16), tol={"rtol": 2e-3, "atol": 2e-3})},
         threadgroup=(32, 4), grid=(130, 16), template=[("T", "float16")])
base = r.uniform(-20, 20, (90, 30)).astype(np.float32)          # x = base.T: a (30, 90) strided view
ref.case("spec_silu_2d_transposed_copied", None,
         {"x": View(base, (1, 0)), "out": Out(silu(base.T).astype(np.float32), tol=TRANSCENDENTAL_TOL)},
         threadgroup=(32, 8), grid=(90, 30), template=[("T", "float32")])

if __name__ == "__main__":
    raise SystemExit(ref.main())
