#!/usr/bin/python3
"""Reference for samples/specs/matmul.json (Core AI form): C = A @ B through A.get_extent(0) and A[k, m]."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import Out, Reference, rng  # noqa: E402

ref = Reference("specs/matmul.json")
r = rng(71)
for m, k, n, tg in ((40, 24, 36, (8, 8)), (7, 65, 13, (16, 4))):
    a = r.standard_normal((m, k)).astype(np.float32)
    b = r.standard_normal((k, n)).astype(np.float32)
    c = a.astype(np.float64) @ b.astype(np.float64)
    ref.case("spec_matmul_%dx%dx%d" % (m, k, n), None,
             {"A": a, "B": b, "C": Out(c.astype(np.float32), tol={"rtol": 1e-5, "atol": 1e-5})},
             threadgroup=tg, grid=(n, m))

if __name__ == "__main__":
    raise SystemExit(ref.main())
