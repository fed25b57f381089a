#!/usr/bin/python3
"""Reference for samples/attention.metal: softmax(q K^T * scale) V per query row."""
import numpy as np
from refcase import WIDTHS, Out, Reference, Scalar, rng

ref = Reference("attention.metal")
r = rng(16)


def add(rows, keys, dim, tg, width):
    q = r.standard_normal((rows, dim), dtype=np.float32)
    k = r.standard_normal((keys, dim), dtype=np.float32)
    v = r.standard_normal((keys, dim), dtype=np.float32)
    scale = 0.125
    s = q.astype(np.float64) @ k.astype(np.float64).T * scale
    p = np.exp(s - s.max(axis=1, keepdims=True))
    out = (p / p.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    ref.case("attention_r%d_k%d_d%d_tg%d_w%d" % (rows, keys, dim, tg, width), "attention_row",
             {0: q, 1: k, 2: v, 3: Out(out.astype(np.float32), tol={"rtol": 1e-4, "atol": 1e-5}),
              4: Scalar("uint", rows), 5: Scalar("uint", keys), 6: Scalar("uint", dim), 7: Scalar("float", scale)},
             threadgroup=tg, grid=rows * 32, width=width)


for width in WIDTHS:
    add(5, 37, 64, 64, width)       # 160 threads: the last threadgroup holds one row
add(3, 200, 128, 96, 8)
add(4, 16, 40, 32, 8)               # head_dim not a multiple of 32

if __name__ == "__main__":
    raise SystemExit(ref.main())
