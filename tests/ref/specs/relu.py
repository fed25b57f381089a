#!/usr/bin/python3
"""Reference for samples/specs/relu.json (MLX form, template T): out = max(x, 0), at float32 and float16."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import EXACT, Out, Reference, rng  # noqa: E402

ref = Reference("specs/relu.json")
r = rng(61)
for n, tg, dtype, t in ((1000, 256, np.float32, "float32"), (4099, 128, np.float16, "float16")):
    x = r.uniform(-4, 4, n).astype(dtype)
    x[:3] = (0.0, -0.0, -1e-3)
    ref.case("spec_relu_%s_grid%d_tg%d" % (t, n, tg), None, {"x": x, "out": Out(np.maximum(x, 0), tol=EXACT)},
             threadgroup=tg, grid=n, template=[("T", t)])

if __name__ == "__main__":
    raise SystemExit(ref.main())
