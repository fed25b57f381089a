#!/usr/bin/python3
"""Reference for samples/silu.metal: out = x / (1 + exp(-x))."""
import numpy as np
from refcase import TRANSCENDENTAL_TOL, Out, Reference, rng

ref = Reference("silu.metal")
r = rng(3)
for n, tg in ((2048, 128), (1001, 96)):
    x = r.uniform(-20, 20, n).astype(np.float32)
    x[:4] = (0.0, -0.0, 80.0, -80.0)      # exp overflow/underflow edges: silu(-80) ~ -0, silu(80) = 80
    x64 = x.astype(np.float64)
    expected = (x64 / (1.0 + np.exp(-x64))).astype(np.float32)
    ref.case("silu_grid%d_tg%d" % (n, tg), "silu", {0: x, 1: Out(expected, tol=TRANSCENDENTAL_TOL)},
             threadgroup=tg, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
