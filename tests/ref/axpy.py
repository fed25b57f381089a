#!/usr/bin/python3
"""Reference for samples/axpy.metal: y = a * x + y, in place."""
import numpy as np
from refcase import InOut, Reference, Scalar, groups_for, rng

ref = Reference("axpy.metal")
r = rng(2)


def add(name, n, tg, a, style):
    x = r.uniform(-10, 10, n).astype(np.float32)
    y = r.uniform(-10, 10, n).astype(np.float32)
    expected = np.float32(a) * x + y            # float32 arithmetic, like the kernel (fma allowed by tolerance)
    grid = dict(grid=n) if style == "grid" else dict(threadgroups=groups_for(n, tg))
    ref.case(name, "axpy", {0: x, 1: InOut(y, expected, tol={"rtol": 1e-5, "atol": 1e-5}),
                            2: Scalar("float", a)}, threadgroup=tg, **grid)


add("axpy_grid1000_tg64", 1000, 64, 2.5, "grid")          # 1000 is not a multiple of 64
add("axpy_grid100000_tg256", 100000, 256, -0.75, "grid")
add("axpy_groups8_tg32", 256, 32, 1.5, "groups")          # dispatchThreadgroups, exact cover

if __name__ == "__main__":
    raise SystemExit(ref.main())
