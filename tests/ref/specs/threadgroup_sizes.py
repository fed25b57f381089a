#!/usr/bin/python3
"""Reference for samples/specs/threadgroup_sizes.json (MLX form, no inputs): every thread reports the threadgroup
size it was dispatched with; MLX clamps the threadgroup to the grid per dimension (min(threadgroup, grid))."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import EXACT, Out, Reference, dim3  # noqa: E402

ref = Reference("specs/threadgroup_sizes.json")
for grid, tg in (((100, 1, 1), (256, 1, 1)), ((5, 6, 3), (8, 4, 16)), ((40, 3, 2), (16, 8, 1))):
    g, t = dim3(grid), dim3(tg)
    clamped = [min(a, b) for a, b in zip(t, g)]
    n = g[0] * g[1] * g[2]
    exp = np.zeros((n, 4), dtype=np.uint32)
    # each thread's own threadgroup: full (clamped) size, or smaller at the grid's far edge
    for z in range(g[2]):
        for y in range(g[1]):
            for x in range(g[0]):
                own = [min(c, gg - (p // c) * c) for c, gg, p in zip(clamped, g, (x, y, z))]
                exp[(z * g[1] + y) * g[0] + x] = clamped + [own[0] * own[1] * own[2]]
    ref.case("spec_threadgroup_sizes_grid%s_tg%s" % ("x".join(map(str, g)), "x".join(map(str, t))), None,
             {"out": Out(exp, tol=EXACT)}, threadgroup=tg, grid=grid)

if __name__ == "__main__":
    raise SystemExit(ref.main())
