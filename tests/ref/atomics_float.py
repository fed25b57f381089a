#!/usr/bin/python3
"""Reference for samples/atomics_float.metal: float min/max/compare-exchange, sub-word half atomics,
a fenced last-threadgroup reduction, atomic_ulong min/max."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng

ref = Reference("atomics_float.metal")
r = rng(47)
EXACT = {"rtol": 0, "atol": 0}


def f32(a):
    return np.asarray(a, dtype=np.float32)


def fmin_metal(a, b):
    """The order the translator gives Metal's float atomic min: NaN operands ignored, -0.0 < +0.0."""
    if np.isnan(b):
        return a
    if np.isnan(a) or b < a or (b == a and np.signbit(b) and not np.signbit(a)):
        return b
    return a


def fmax_metal(a, b):
    if np.isnan(b):
        return a
    if np.isnan(a) or b > a or (b == a and np.signbit(a) and not np.signbit(b)):
        return b
    return a


def min_max(name, x, init, tg):
    m = [np.float32(v) for v in init]
    for i, v in enumerate(x):
        m[0] = fmin_metal(m[0], v)
        m[1] = fmax_metal(m[1], v)
        m[2 + i % 2] = fmin_metal(m[2 + i % 2], v)
    ref.case(name, "float_min_max", {0: x, 1: InOut(f32(init), f32(m), tol=EXACT, bits=True)}, threadgroup=tg, grid=x.size)


def float_cas(name, n, tg):
    # powers of two, 40 halvings and 40 doublings: the product is exact in any order (no partial product overflows)
    x = np.concatenate([np.full(40, 0.5), np.full(40, 2.0), np.full(n - 80, 1.0)]).astype(np.float32)
    x[r.choice(n, 5, replace=False)] *= -1                               # five sign flips
    x[r.integers(0, n)] = np.float32(-16.0)                              # the largest magnitude, negative
    x = r.permutation(x).astype(np.float32)
    acc0 = np.array([3.0, 0.0, np.nan, -0.0, 1000.0], dtype=np.float32)
    acc = np.array([3.0 * np.prod(x.astype(np.float64)), np.abs(x).max(), 7.0, -0.0,
                    1000.0 - np.abs(x.astype(np.float64)).sum()], dtype=np.float32)
    ref.case(name, "float_cas", {0: x, 1: InOut(acc0, acc, tol=EXACT, bits=True),
                                 2: Out(np.array([1, 0], np.int32)),       # NaN matched its bits; +0.0 did not match -0.0
                                 3: Out(f32([-0.0]), tol=EXACT, bits=True)},                    # expected received the -0.0 found
             threadgroup=tg, grid=n)


def half_subword(name, n, tg):
    x = (r.integers(-4, 5, n) * 0.25).astype(np.float16)                 # quarters: every partial sum is exact
    bins0 = np.array([1, -2, 0.5, 3, 0, 8, -0.75, 42], dtype=np.float16)  # 8 halves: 4 words; bin 7 untouched
    sums = np.bincount(np.arange(n) % 7, weights=x.astype(np.float64), minlength=8)
    bins = (bins0.astype(np.float64) + sums).astype(np.float16)
    ref.case(name, "half_subword_add", {0: InOut(bins0, bins, tol=EXACT), 1: x}, threadgroup=tg, grid=n)


def uchar_subword(name, n, tg):
    x = r.integers(0, 11, n).astype(np.uint8)                            # bins 0..10 of 12: bin 11 untouched
    counts0 = r.integers(0, 256, 12).astype(np.uint8)
    counts = ((counts0.astype(np.int64) + np.bincount(x, minlength=12)) % 256).astype(np.uint8)
    ref.case(name, "uchar_subword_count", {0: InOut(counts0, counts), 1: x}, threadgroup=tg, grid=n)


def last_group(name, groups, entry="last_group_sum"):
    n = groups * 64
    x = r.uniform(-1, 1, n).astype(np.float32)
    sums = x.reshape(groups, 64).copy()
    s = 32
    while s > 0:                                                         # the kernel's tree, in float32
        sums[:, :s] = sums[:, :s] + sums[:, s:2 * s]
        s //= 2
    partial = sums[:, 0].copy()
    t = np.float32(0)
    for p in partial:                                                    # the last threadgroup's sum, in order
        t = np.float32(t + p)
    ref.case(name, entry, {0: x, 1: Out(partial, tol=EXACT), 2: InOut(np.zeros(1, np.uint32), np.array([groups], np.uint32)),
                                      3: Out(np.array([t], np.float32), tol=EXACT)},
             threadgroup=64, grid=n)


def ulong_min_max(name, n, tg):
    v = r.integers(1 << 33, 1 << 62, n, dtype=np.uint64)                  # above 32 bits
    v[r.integers(0, n)] = np.uint64(0xfedcba9876543210)
    m0 = np.array([0xffffffffffffffff, 5], dtype=np.uint64)
    m = np.array([v.min(), v.max()], dtype=np.uint64)
    lanes = np.uint32(0)
    for i in range(min(n, 32)):
        lanes |= np.uint32(1 << i)
    ref.case(name, "ulong_min_max", {0: v, 1: InOut(m0, m), 2: InOut(np.array([10], np.int32), np.array([10 + n], np.int32)),
                                     3: InOut(np.zeros(1, np.uint32), np.array([lanes], np.uint32))},
             threadgroup=tg, grid=n)


def threadgroup_min_max(name, groups, tg):
    x = r.uniform(-3, 3, groups * tg).astype(np.float32)
    g = x.reshape(groups, tg)
    out = np.stack([g.min(axis=1), g.max(axis=1), np.rint(g).astype(np.float64).sum(axis=1)], axis=1).astype(np.float32)
    ref.case(name, "threadgroup_float_min_max", {0: x, 1: Out(out.reshape(-1), tol=EXACT)}, threadgroup=tg, grid=x.size)


x = r.uniform(-5, 5, 1000).astype(np.float32)
x[r.choice(1000, 20, replace=False)] = np.nan
min_max("float_min_max_nan_1000", x, [5.0, np.nan, np.nan, 100.0], 64)
z = np.where(r.integers(0, 2, 512) == 1, np.float32(-0.0), np.float32(0.0)).astype(np.float32)
min_max("float_min_max_signed_zero_512", z, [0.0, -0.0, 0.0, 0.0], 32)
float_cas("float_cas_1024", 1024, 64)
half_subword("half_subword_add_700", 700, 64)
uchar_subword("uchar_subword_count_2000", 2000, 64)     # wraps past 255: bins get about 180 each                 # 100 additions per bin, two bins per word
last_group("last_group_sum_40", 40)
last_group("last_group_sum_acq_rel_33", 33, "last_group_sum_acq_rel")
ulong_min_max("ulong_min_max_777", 777, 64)
threadgroup_min_max("threadgroup_float_min_max_g12", 12, 128)
ref.case("memory_orders_300", "memory_orders", {0: InOut(np.array([0, 40, 0, 0], np.uint32), np.array([3, 40, 40, 1], np.uint32)),
                                               1: Out(np.full(300, 40, np.uint32))}, threadgroup=64, grid=300)
ref.case("signal_value_100", "signal_value", {0: Out(np.array([77], np.uint32)), 1: Out(77 + np.arange(100, dtype=np.float32), tol=EXACT),
                                             2: Scalar("uint", 77)}, threadgroup=32, grid=100)

if __name__ == "__main__":
    raise SystemExit(ref.main())
