#!/usr/bin/python3
"""Reference for samples/times_two.metal: out = 2 * in."""
import numpy as np
from refcase import Out, Reference, rng

ref = Reference("times_two.metal")
r = rng(1)
for n, tg in ((1000, 64), (1, 1), (4099, 256), (33, 32)):   # partial threadgroups except n=1
    x = r.standard_normal(n, dtype=np.float32)
    ref.case("times_two_grid%d_tg%d" % (n, tg), "times_two", {0: x, 1: Out(x * np.float32(2))},
             threadgroup=tg, grid=n)
x = r.standard_normal(4 * 128, dtype=np.float32)
ref.case("times_two_groups4_tg128", "times_two", {0: x, 1: Out(x * np.float32(2))},
         threadgroup=128, threadgroups=4)

if __name__ == "__main__":
    raise SystemExit(ref.main())
