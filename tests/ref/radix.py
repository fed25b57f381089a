#!/usr/bin/python3
"""Reference for samples/radix.metal: histogram, prefix sum and scatter of one radix-sort pass, each on its own."""
import numpy as np
from refcase import WIDTHS, Out, Reference, Scalar, rng

ref = Reference("radix.metal")
r = rng(15)


def digits(keys, shift):
    return (keys >> np.uint32(shift)) & np.uint32(15)


def histogram(keys, shift, tg):
    nb = -(-keys.size // tg)
    counts = np.zeros((16, nb), np.uint32)
    d = digits(keys, shift)
    for b in range(nb):
        counts[:, b] = np.bincount(d[b * tg:(b + 1) * tg], minlength=16)
    return counts


def add(n, tg, shift, width):
    keys = r.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    nb = -(-n // tg)
    tag = "n%d_tg%d_s%d_w%d" % (n, tg, shift, width)
    counts = histogram(keys, shift, tg)
    ref.case("radix_histogram_" + tag, "radix_histogram",
             {0: keys, 1: Out(counts.reshape(-1)), 2: Scalar("uint", n), 3: Scalar("uint", shift), 4: Scalar("uint", nb)},
             threadgroup=tg, grid=n, width=width)
    flat = counts.reshape(-1)
    offsets = (np.cumsum(flat.astype(np.uint64)) - flat).astype(np.uint32)
    ptg = 128 if width != 8 else 96
    ref.case("radix_prefix_c%d_tg%d_w%d" % (flat.size, ptg, width), "radix_prefix",
             {0: flat, 1: Out(offsets), 2: Scalar("uint", flat.size)}, threadgroup=ptg, threadgroups=1, width=width,
             threadgroup_memory={0: 16 * -(-ptg // 32)})
    order = np.argsort(digits(keys, shift), kind="stable")
    ref.case("radix_scatter_" + tag, "radix_scatter",
             {0: keys, 1: offsets, 2: Out(keys[order]), 3: Scalar("uint", n), 4: Scalar("uint", shift),
              5: Scalar("uint", nb)}, threadgroup=tg, grid=n, width=width)


for width in WIDTHS:
    add(5000, 256, 0, width)        # a last threadgroup of 136 keys
add(3000, 100, 8, 8)                # 100 threads: SIMD-groups of 32, 32, 32 and 4 lanes
add(70000, 1024, 28, 8)

if __name__ == "__main__":
    raise SystemExit(ref.main())
