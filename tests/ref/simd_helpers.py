#!/usr/bin/python3
"""Reference for samples/simd_helpers.metal: SIMD-group functions inside helpers, with lanes inactive."""
import numpy as np
from refcase import WIDTHS, Out, Reference, rng

ref = Reference("simd_helpers.metal")
r = rng(18)


def expected(x, tg):
    n = x.size
    out = np.zeros((n, 4), np.float64)
    for start in range(0, n, tg):
        threads = min(tg, n - start)
        for sg in range(0, threads, 32):
            base = start + sg
            lanes = min(32, threads - sg)
            v = x[base:base + lanes].astype(np.float64)
            even = v[0::2].sum()
            first20 = v[:20].sum()
            ge8 = v[8:].max() + 1.0 if lanes > 8 else 0.0
            for l in range(lanes):
                c = 0
                for k in range(l % 4):
                    active = [j for j in range(lanes) if j % 4 > k]
                    c += sum(1 for j in active if v[j] - k > 0)
                out[base + l] = (even if l % 2 == 0 else 0.0, first20 if l < 20 else -1.0, c, ge8 if l >= 8 else 0.0)
    return out.astype(np.float32)


for width in WIDTHS:
    for n, tg in ((256, 128), (200, 64), (45, 45)):
        x = r.uniform(-2, 2, n).astype(np.float32)
        ref.case("simd_helpers_n%d_tg%d_w%d" % (n, tg, width), "simd_helpers",
                 {0: x, 1: Out(expected(x, tg), tol={"rtol": 1e-5, "atol": 1e-5})}, threadgroup=tg, grid=n, width=width)


def pointer_sums(x, tg):
    """Per SIMD-group of 32 lanes (threadgroups of TG threads): the sums of x and of 2x + 1."""
    n = x.size
    out = np.zeros((n, 2), np.float64)
    for start in range(0, n, tg):
        for sg in range(start, min(start + tg, n), 32):
            v = x[sg:min(sg + 32, start + tg, n)].astype(np.float64)
            out[sg:sg + v.size] = (v.sum(), (2 * v + 1).sum())
    return out.astype(np.float32)


for width in WIDTHS:
    x = r.uniform(-2, 2, 96).astype(np.float32)
    ref.case("simd_helper_pointers_w%d" % width, "simd_helper_pointers",
             {0: x, 1: Out(pointer_sums(x, 64), tol={"rtol": 1e-5, "atol": 1e-5})}, threadgroup=64, grid=96, width=width)

if __name__ == "__main__":
    raise SystemExit(ref.main())
