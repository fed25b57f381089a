#!/usr/bin/python3
"""Reference for samples/scan.metal: the three kernels of a large prefix sum, each checked on its own."""
import numpy as np
from refcase import EXACT, WIDTHS, InOut, Out, Reference, Scalar, rng

ref = Reference("scan.metal")
r = rng(14)


def blocks(n, tg, exclusive, width):
    x = r.integers(0, 1000, n, dtype=np.uint32)
    nb = -(-n // tg)
    out = np.empty(n, np.uint32)
    sums = np.empty(nb, np.uint32)
    for b in range(nb):
        seg = x[b * tg:(b + 1) * tg].astype(np.uint64)
        inc = np.cumsum(seg)
        out[b * tg:(b + 1) * tg] = inc - seg if exclusive else inc
        sums[b] = seg.sum()
    kind = "exclusive" if exclusive else "inclusive"
    ref.case("scan_blocks_%s_n%d_tg%d_w%d" % (kind, n, tg, width), "scan_blocks",
             {0: x, 1: Out(out), 2: Out(sums), 3: Scalar("uint", n), 4: Scalar("uint", int(exclusive))},
             threadgroup=tg, grid=n, width=width)


def block_sums(count, tg, width):
    s = r.integers(0, 100000, count, dtype=np.uint32)
    offsets = (np.cumsum(s.astype(np.uint64)) - s).astype(np.uint32)
    ref.case("scan_block_sums_c%d_tg%d_w%d" % (count, tg, width), "scan_block_sums",
             {0: s, 1: Out(offsets), 2: Scalar("uint", count)}, threadgroup=tg, threadgroups=1, width=width)


for width in WIDTHS:
    blocks(10000, 256, False, width)     # 39 whole threadgroups and one of 16 threads
    blocks(1000, 96, True, width)        # a last threadgroup of 40 threads: a SIMD-group of 8 lanes
    block_sums(1000, 128, width)         # 8 chunks with a carry
    block_sums(77, 64, width)
blocks(100000, 1024, True, 8)
blocks(33, 32, False, 8)

n, tg = 5000, 256
data = r.integers(0, 1 << 20, n, dtype=np.uint32)
offs = r.integers(0, 1 << 20, -(-n // tg), dtype=np.uint32)
ref.case("scan_add_offsets_n5000_tg256", "scan_add_offsets",
         {0: InOut(data, data + np.repeat(offs, tg)[:n]), 1: offs, 2: Scalar("uint", n)}, threadgroup=tg, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
