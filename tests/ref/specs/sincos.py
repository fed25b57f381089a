#!/usr/bin/python3
"""Reference for samples/specs/sincos.json (Core AI form): sin and cos as two results."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import TRANSCENDENTAL_TOL, Out, Reference, rng  # noqa: E402

ref = Reference("specs/sincos.json")
r = rng(72)
x = r.uniform(-10, 10, 1000).astype(np.float32)
x64 = x.astype(np.float64)
ref.case("spec_sincos_1000", None,
         {"x": x, "s": Out(np.sin(x64).astype(np.float32), tol=TRANSCENDENTAL_TOL),
          "c": Out(np.cos(x64).astype(np.float32), tol=TRANSCENDENTAL_TOL)}, threadgroup=64, grid=1000)

if __name__ == "__main__":
    raise SystemExit(ref.main())
