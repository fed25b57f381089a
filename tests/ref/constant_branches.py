#!/usr/bin/python3
"""Reference for samples/constant_branches.metal: branches constant in a template instance."""
import numpy as np
from refcase import Out, Reference, rng

ref = Reference("constant_branches.metal")
r = rng(71)
EXACT = {"rtol": 0, "atol": 0}

x = r.uniform(-10, 10, 128).astype(np.float32)
i = np.arange(128)
with_index = (2 * x + np.where(i % 2 == 0, 1, 0)).astype(np.float32)
ref.case("constant_branches_index", "scaled_index",
         {0: x, 1: Out(with_index, tol=EXACT), 2: Out((i * 3 + 1).astype(np.uint32), tol=EXACT)},
         threadgroup=64, grid=128)
# the plain instance never writes out_idx: a buffer of 1 element would do, but mtlrun binds what it is given
ref.case("constant_branches_plain", "scaled_plain", {0: x, 1: Out((2 * x).astype(np.float32), tol=EXACT),
                                                     2: np.zeros(1, np.uint32)}, threadgroup=64, grid=128)

if __name__ == "__main__":
    raise SystemExit(ref.main())
