#!/usr/bin/python3
"""Reference for samples/specs/scatter_rows.json (MLX form, init_value): rows of x scattered into out by idx (an
int32 input under 8 elements: MLX binds it in constant space); the other rows keep init_value."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import EXACT, Out, Reference, rng  # noqa: E402

ref = Reference("specs/scatter_rows.json")
r = rng(69)
for rows, n, d, init in ((5, 12, 24, -1.5), (9, 20, 7, 3.0)):
    x = r.standard_normal((rows, d)).astype(np.float32)
    idx = r.permutation(n)[:rows].astype(np.int32)
    y = np.full((n, d), init, dtype=np.float32)
    y[idx] = x
    ref.case("spec_scatter_rows_%dto%d_init%s" % (rows, n, ("%g" % init).replace("-", "m").replace(".", "p")), None,
             {"x": x, "idx": idx, "out": Out(y, tol=EXACT)}, threadgroup=(8, 5), grid=(d, rows), init_value=init)

if __name__ == "__main__":
    raise SystemExit(ref.main())
