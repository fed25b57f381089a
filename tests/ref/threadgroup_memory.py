#!/usr/bin/python3
"""Reference for samples/threadgroup_memory.metal: a tiled transpose, a block argmax over structs, a block
reversal through [[threadgroup(0)]] memory and a neighbour swap behind simdgroup_barrier."""
import numpy as np
from refcase import WIDTHS, Out, Reference, Scalar, groups_for, rng

ref = Reference("threadgroup_memory.metal")
r = rng(17)

for rows, cols in ((37, 53), (16, 16), (5, 70)):
    a = r.standard_normal((rows, cols), dtype=np.float32)
    ref.case("tile_transpose_%dx%d" % (rows, cols), "tile_transpose",
             {0: a, 1: Out(np.ascontiguousarray(a.T)), 2: Scalar("uint", rows), 3: Scalar("uint", cols)},
             threadgroup=(16, 16), threadgroups=groups_for((cols, rows), (16, 16)))

for n, tg in ((1000, 256), (300, 100), (64, 64)):
    x = r.standard_normal(n).astype(np.float32)
    nb = -(-n // tg)
    best = np.zeros((nb, 2), np.uint32)
    for b in range(nb):
        seg = x[b * tg:(b + 1) * tg]
        k = int(np.argmax(seg))
        best[b] = (seg[k:k + 1].view(np.uint32)[0], b * tg + k)
    ref.case("block_argmax_n%d_tg%d" % (n, tg), "block_argmax", {0: x, 1: Out(best), 2: Scalar("uint", n)},
             threadgroup=tg, grid=n)

for n, tg in ((1000, 128), (96, 96), (50, 32)):
    v = r.standard_normal((n, 4)).astype(np.float32)
    out = np.empty_like(v)
    for start in range(0, n, tg):
        out[start:start + tg] = v[start:start + tg][::-1] * 2
    ref.case("block_reverse_n%d_tg%d" % (n, tg), "block_reverse", {0: v, 1: Out(out)},
             threadgroup=tg, grid=n, threadgroup_memory={0: 16 * tg})

for width in WIDTHS:
    n, tg = 320, 128     # a last threadgroup of 64
    v = r.integers(-1000, 1000, (n, 2), dtype=np.int32)
    idx = np.arange(n) ^ 1
    ref.case("simdgroup_exchange_n%d_tg%d_w%d" % (n, tg, width), "simdgroup_exchange", {0: v, 1: Out(v[idx])},
             threadgroup=tg, grid=n, width=width)

if __name__ == "__main__":
    raise SystemExit(ref.main())
