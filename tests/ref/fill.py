#!/usr/bin/python3
"""Reference for samples/fill.metal: out[i] = value."""
import numpy as np
from refcase import Out, Reference, Scalar

ref = Reference("fill.metal")
for n, tg, value in ((777, 64, 3.25), (64, 64, -0.0), (5000, 128, 1e-3)):
    value = float(np.float32(value))
    ref.case("fill_grid%d_tg%d" % (n, tg), "fill",
             {0: Out(np.full(n, value, dtype=np.float32)), 1: Scalar("float", value)},
             threadgroup=tg, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
