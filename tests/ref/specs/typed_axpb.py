#!/usr/bin/python3
"""Reference for samples/specs/typed_axpb.json (Core AI form, template_dtypes): y = 3 x + 1 in x's own type, at
float32, float16 and int32."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import EXACT, Out, Reference, rng  # noqa: E402

ref = Reference("specs/typed_axpb.json")
r = rng(73)
for dtype, tol in ((np.float32, {"rtol": 1e-6, "atol": 1e-6}), (np.float16, {"rtol": 1e-3, "atol": 1e-3}),
                   (np.int32, EXACT)):
    x = (r.uniform(-100, 100, 500)).astype(dtype)
    y = (x.astype(np.float64) * 3 + 1).astype(dtype)
    ref.case("spec_typed_axpb_%s" % np.dtype(dtype).name, None, {"x": x, "y": Out(y, tol=tol)}, threadgroup=64,
             grid=500)

if __name__ == "__main__":
    raise SystemExit(ref.main())
