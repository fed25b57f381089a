#!/usr/bin/python3
"""Reference for samples/specs/vector_add.json (Core AI form): c = a + b."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import EXACT, Out, Reference, rng  # noqa: E402

ref = Reference("specs/vector_add.json")
r = rng(70)
for n, tg in ((1000, 128), (77, 32)):
    a = r.standard_normal(n).astype(np.float32)
    b = r.standard_normal(n).astype(np.float32)
    ref.case("spec_vector_add_%d" % n, None, {"a": a, "b": b, "c": Out(a + b, tol=EXACT)}, threadgroup=tg, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
