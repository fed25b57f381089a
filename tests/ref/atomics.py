#!/usr/bin/python3
"""Reference for samples/atomics.metal: histograms, stream compaction, integer and float atomics."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng

ref = Reference("atomics.metal")
r = rng(43)


def histogram(name, n, groups, skew):
    data = (r.integers(0, 256, n) if not skew else np.minimum(r.geometric(0.05, n), 255)).astype(np.uint8)
    start = r.integers(0, 1000, 256).astype(np.uint32)              # counts are added to what is there
    expected = start + np.bincount(data, minlength=256).astype(np.uint32)
    ref.case(name, "histogram256", {0: data, 1: InOut(start, expected), 2: Scalar("uint", n)},
             threadgroup=256, threadgroups=groups)


def compact(name, n, tg):
    x = r.uniform(-1, 1, n).astype(np.float32)
    x[r.integers(0, n, n // 10)] = 0.0                              # zero is not positive
    pos = x[x > 0]
    out_init = np.zeros(n, dtype=np.float32)
    expected = out_init.copy()
    expected[:pos.size] = pos
    count = np.array([5], dtype=np.int32)                           # the counter starts at 5: slots 5..
    expected = np.concatenate([np.zeros(5, np.float32), expected[:n - 5]])
    ref.case(name, "compact_positive", {0: x, 1: InOut(out_init, expected, tol={"rtol": 0, "atol": 0}, unordered=True),
                                        2: InOut(np.array([5], np.int32), count + pos.size)},
             threadgroup=tg, grid=n)


def ops(name, n, tg):
    v = r.integers(-1000, 1000, n).astype(np.int32)
    slots = r.integers(-50, 50, n).astype(np.int32)                 # acc[3 + i]: exchanged by thread i
    acc0 = np.concatenate([np.array([0, 0, 7], dtype=np.int32), slots])
    acc = np.concatenate([np.array([min(0, v.min()), max(0, v.max()), np.int32(7 - v.astype(np.int64).sum())], dtype=np.int32),
                          2 * np.arange(n, dtype=np.int32)])
    bits0 = np.array([0, 0xffffffff, 0x12345678], dtype=np.uint32)
    lanes = np.uint32(0)
    for i in range(min(n, 32)):
        lanes |= np.uint32(1 << i)
    x = np.uint32(0x12345678)
    for t in v.astype(np.uint32):
        x ^= t
    bits = np.array([lanes, np.uint32(0xffffffff) & ~lanes, x], dtype=np.uint32)
    ref.case(name, "atomic_ops", {0: InOut(acc0, acc), 1: InOut(bits0, bits), 2: v, 3: Out(slots.copy())},
             threadgroup=tg, grid=n)


def floats(name, n, tg):
    x = r.uniform(-4, 4, n).astype(np.float32)
    x[r.integers(0, n)] = np.float32(9.5)
    total = x.astype(np.float64).sum()
    ref.case(name, "float_atomics", {0: x, 1: InOut(np.array([1.5], np.float32), np.array([1.5 + total], np.float32),
                                                    tol={"rtol": 1e-5, "atol": 1e-3}),
                                     2: InOut(np.array([np.float32(-100).view(np.uint32)], np.uint32),
                                              np.array([np.float32(x.max()).view(np.uint32)], np.uint32))},
             threadgroup=tg, grid=n)


def half_bfloat(name, n, tg):
    x = (r.integers(0, 3, n) * 0.5).astype(np.float16)           # 0, 0.5, 1: every partial sum is exact
    sums = np.bincount(np.arange(n) % 8, weights=x.astype(np.float64), minlength=8)
    h0 = np.array([1, -2, 0.25, 3, 0, 8, -0.5, 2], dtype=np.float16)
    h = (h0.astype(np.float64) + sums).astype(np.float16)
    b0 = np.array([2, 1, -4, 0.5, 0, 16, 1, -1], dtype=np.float32)
    b = ((b0.astype(np.float64) + sums).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)   # exact
    b0_bits = (b0.view(np.uint32) >> 16).astype(np.uint16)
    ref.case(name, "half_bfloat_atomics", {0: x, 1: InOut(h0.view(np.uint32), h.view(np.uint32)),
                                           2: InOut(b0_bits.view(np.uint32), b.view(np.uint32))},
             threadgroup=tg, grid=n)


histogram("histogram_uniform_5000_g4", 5000, 4, False)
histogram("histogram_skewed_100000_g8", 100000, 8, True)          # many threads on the same bins
compact("compact_positive_10000_tg64", 10000, 64)
ops("atomic_ops_1000_tg64", 1000, 64)
floats("float_atomics_4096_tg128", 4096, 128)
half_bfloat("half_bfloat_atomics_256", 256, 64)         # 32 additions per bin, racing in CAS loops

if __name__ == "__main__":
    raise SystemExit(ref.main())
