#!/usr/bin/python3
"""Reference for samples/vectors.metal, one NumPy line per Metal line (rows are threads, columns x y z w)."""
import numpy as np
from refcase import Out, Reference, rng

ref = Reference("vectors.metal")
r = rng(6)
f32 = np.float32


def expected(a, b, k):
    x, y, n = a, b, k
    splat = np.repeat(x[:, 3:4], 4, axis=1)
    pieces = np.stack([x[:, 0], x[:, 1], y[:, 2], np.ones(len(x), f32)], axis=1)
    converted = n.astype(f32)
    pair = np.stack([y[:, 3], x[:, 0]], axis=1)
    nested = np.stack([pair[:, 0], pair[:, 1], x[:, 2], np.full(len(x), 0.5, f32)], axis=1)

    rr = x[:, ::-1].copy()                       # x.wzyx
    rr[:, [0, 2]] = y[:, [0, 2]] * f32(2)        # r.xz = y.xz * 2
    c = np.zeros_like(x)
    c[:, [0, 1, 2, 3]] = x[:, [2, 1, 0, 3]]      # c.rgba = x.bgra
    c[:, 1] += pair[:, 1]
    c[:, 3] = -c[:, 3]
    t = y[:, [2, 0, 1]]                          # y.zxy

    s = x + y * f32(0.5) - splat / f32(4)
    prod = x * y + np.array([1, 2, 3, 4], f32)
    larger = np.where(x > y, x, y)
    flags = (x <= y).astype(f32)
    any_negative = (x < 0).any(axis=1)
    all_small = (np.abs(y) < f32(0.75)).all(axis=1)

    d = (x.astype(np.float64) * y).sum(axis=1)
    length = np.sqrt((x[:, :3].astype(np.float64) ** 2).sum(axis=1))
    v = x[:, :3].astype(np.float64) + np.array([0, 0, 4.0])
    unit = v / np.sqrt((v ** 2).sum(axis=1, keepdims=True))
    cr = np.cross(x[:, :3].astype(np.float64), t.astype(np.float64))

    m = n * 3 - np.array([1, 2, 3, 4], np.int32)
    ip = n[:, [1, 0]] + n[:, 2:3]
    m[:, [1, 3]] = ip
    lo = np.minimum(n, m)
    bits = (n & 0xFF) | ((m << 2) ^ n[:, 3:4])
    neg = np.where(n > 0, -1, 0).astype(np.int32)
    eq = (n == m).astype(np.int32) + (n != 0).astype(np.int32) * 10

    out = np.zeros((len(x), 6, 4), np.float64)
    out[:, 0] = pieces + converted
    out[:, 1] = rr + c + nested
    out[:, 2] = s + np.concatenate([t, np.zeros((len(x), 1), f32)], axis=1)
    out[:, 3] = larger + prod + flags
    out[:, 4] = np.stack([d, length, any_negative, all_small], axis=1)
    out[:, 5] = np.concatenate([unit + cr, (lo[:, 0] + lo[:, 3])[:, None]], axis=1)
    iout = np.stack([lo, bits + neg, eq], axis=1).astype(np.int32)
    return out.astype(f32), iout


for n, tg in ((300, 64), (1024, 256)):
    a = r.uniform(-1, 1, (n, 4)).astype(f32)
    b = r.uniform(-1, 1, (n, 4)).astype(f32)
    k = r.integers(-50, 50, (n, 4), dtype=np.int32)
    k[::7] = 0                                   # exercise n != 0 and n > 0 both ways
    a[::5, 3] = b[::5, 3]                        # ties for x > y / x <= y
    out, iout = expected(a, b, k)
    ref.case("vectors_grid%d_tg%d" % (n, tg), "vectors",
             {0: a, 1: b, 2: k, 3: Out(out, tol={"rtol": 1e-5, "atol": 2e-5}), 4: Out(iout)},
             threadgroup=tg, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
