#!/usr/bin/python3
"""Reference for samples/simd_switch.metal: a uniform switch around SIMD-group functions in a helper, a pointer
into a buffer chosen at run time and a union declared after a divergent continue, and loops that only a break or a
return ends (simd_endless)."""
import numpy as np
from refcase import WIDTHS, Bytes, Out, Reference, rng

ref = Reference("simd_switch.metal")
r = rng(41)


def expected(a, b, h, mode, tg):
    n = a.size
    out = np.zeros((n, 3), np.float64)
    hf = h.view(np.float16).astype(np.float64).reshape(n, 4)
    for start in range(0, n, tg):
        threads = min(tg, n - start)
        for sg in range(0, threads, 32):
            lo, hi = start + sg, start + min(sg + 32, threads)
            va, vb = a[lo:hi].astype(np.float64), b[lo:hi].astype(np.float64)
            out[lo:hi, 0] = va.sum() if mode == 1 else va.max() if mode == 2 else va.min()
            for i in range(4):
                on = va * (i + 1) <= 2.0                    # the lanes that do not continue
                p = va if i & 1 else vb
                out[lo:hi, 1] += np.where(on, p[on].sum(), 0.0)
                out[lo:hi, 2] += np.where(on, hf[lo:hi, i], 0.0)
    return out.astype(np.float32)


for width in WIDTHS:
    for mode, n, tg in ((1, 128, 64), (2, 96, 96), (3, 45, 45)):
        a = r.uniform(-1, 3, n).astype(np.float32)
        b = r.uniform(-1, 1, n).astype(np.float32)
        h = r.uniform(-4, 4, 4 * n).astype(np.float16).view(np.uint16)
        args = np.array([mode, n], dtype=np.int32).tobytes()
        ref.case("simd_switch_mode%d_n%d_w%d" % (mode, n, width), "simd_switch",
                 {0: Bytes(args), 1: a, 2: b, 3: h, 4: Out(expected(a, b, h, mode, tg), tol={"rtol": 1e-5, "atol": 1e-5})},
                 threadgroup=tg, grid=n, width=width)


def expected_endless(x, tg):
    n = x.size
    out = np.zeros((n, 2), np.float64)
    for start in range(0, n, tg):
        threads = min(tg, n - start)
        for sg in range(0, threads, 32):
            lo, hi = start + sg, start + min(sg + 32, threads)
            v = x[lo:hi].astype(np.float64)
            lanes = np.arange(hi - lo)
            for l in lanes:
                out[lo + l, 0] = sum(v[lanes % 5 >= i].sum() * (i + 1) for i in range(l % 5 + 1))
                out[lo + l, 1] = sum((v[lanes % 3 >= k] + k).max() for k in range(l % 3 + 1))
    return out.astype(np.float32)


for width in WIDTHS:
    for n, tg in ((128, 64), (45, 45)):
        x = r.uniform(-1, 1, n).astype(np.float32)
        ref.case("simd_endless_n%d_w%d" % (n, width), "simd_endless",
                 {0: x, 1: Out(expected_endless(x, tg), tol={"rtol": 1e-5, "atol": 1e-5})}, threadgroup=tg, grid=n,
                 width=width)

if __name__ == "__main__":
    raise SystemExit(ref.main())
