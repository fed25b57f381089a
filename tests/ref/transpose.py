#!/usr/bin/python3
"""Reference for samples/transpose.metal: out (cols x rows) = in (rows x cols) transposed."""
import numpy as np
from refcase import Out, Reference, Scalar, groups_for, rng

ref = Reference("transpose.metal")
r = rng(4)


def add(name, rows, cols, tg, style):
    a = r.standard_normal((rows, cols), dtype=np.float32)
    grid = dict(grid=(cols, rows)) if style == "grid" else dict(threadgroups=groups_for((cols, rows), tg))
    ref.case(name, "transpose", {0: a, 1: Out(np.ascontiguousarray(a.T)),
                                 2: Scalar("uint", rows), 3: Scalar("uint", cols)},
             threadgroup=tg, **grid)


add("transpose_37x53_grid_tg8x8", 37, 53, (8, 8), "grid")          # partial groups in x and y
add("transpose_37x53_groups_tg8x8", 37, 53, (8, 8), "groups")      # extra threads hit the guard
add("transpose_64x16_grid_tg16x4", 64, 16, (16, 4), "grid")
add("transpose_1x300_grid_tg32x1", 1, 300, (32, 1), "grid")

if __name__ == "__main__":
    raise SystemExit(ref.main())
