#!/usr/bin/python3
"""Reference for samples/softmax.metal: softmax over each row, one threadgroup per row."""
import numpy as np
from refcase import WIDTHS, Out, Reference, Scalar, rng

ref = Reference("softmax.metal")
r = rng(13)


def add(rows, cols, tg, width):
    x = (r.standard_normal((rows, cols)) * 10 + 50).astype(np.float32)   # exp(x) alone would overflow
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    y = e / e.sum(axis=1, keepdims=True)
    ref.case("softmax_r%d_c%d_tg%d_w%d" % (rows, cols, tg, width), "softmax",
             {0: x, 1: Out(y.astype(np.float32), tol={"rtol": 1e-4, "atol": 1e-7}), 2: Scalar("uint", cols)},
             threadgroup=tg, threadgroups=rows, width=width)


for width in WIDTHS:
    add(3, 1000, 128, width)
    add(4, 40, 48, width)       # 48 threads: two SIMD-groups, the second of 16 lanes
add(2, 3000, 1024, 8)

if __name__ == "__main__":
    raise SystemExit(ref.main())
