#!/usr/bin/python3
"""Reference for samples/specs/histogram.json (MLX form, atomic_outputs, init_value 0): counts of bin numbers."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import EXACT, Out, Reference, rng  # noqa: E402

ref = Reference("specs/histogram.json")
r = rng(74)
for n, bins, tg in ((4096, 16, 256), (1000, 7, 64)):
    x = r.integers(0, bins, n).astype(np.uint32)
    counts = np.bincount(x, minlength=bins).astype(np.int32)
    ref.case("spec_histogram_%d_bins%d" % (n, bins), None, {"x": x, "counts": Out(counts, tol=EXACT)},
             threadgroup=tg, grid=n, init_value=0)

if __name__ == "__main__":
    raise SystemExit(ref.main())
