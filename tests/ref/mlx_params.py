#!/usr/bin/python3
"""Reference for samples/mlx_params.metal: strides as `constant T a[N]` parameters, 8/16-bit constant references."""
import numpy as np
from refcase import WIDTHS, Bytes, Out, Reference, Scalar, from_bf16, rng, to_bf16

ref = Reference("mlx_params.metal")
r = rng(131)


def strided(base, shape, strides):
    return np.lib.stride_tricks.as_strided(base, shape=shape, strides=[s * base.itemsize for s in strides])


# binary_g_nd2: a 13x29 output from a transposed a and a row-broadcast b
h, w = 13, 29
a = r.uniform(-4, 4, h * w).astype(np.float32)
b = r.uniform(-4, 4, w).astype(np.float32)
want = strided(a, (h, w), (1, h)) + strided(b, (h, w), (0, 1))
ref.case("mlx_params_add_nd2", "add_nd2",
         {0: a, 1: b, 2: Out(want.reshape(-1)), 3: np.array([1, h], np.int64), 4: np.array([0, 1], np.int64)},
         threadgroup=(8, 4, 1), grid=(w, h, 1))

# int[3] strides: a 3x5x7 view of a 7x5x3 array (all axes reversed)
d = (3, 5, 7)
x = r.integers(-1000, 1000, 105).astype(np.int32)
ref.case("mlx_params_gather_nd3", "gather_nd3",
         {0: x, 1: Out(strided(x, d, (1, 3, 15)).reshape(-1)), 2: np.array([1, 3, 15], np.int32)},
         threadgroup=(4, 2, 2), grid=(7, 5, 3))

# arange: start + index * step in T's arithmetic (8/16-bit integers wrap as Metal's do)
n = 300
idx = np.arange(n)
for t, dt, start, step in (("uchar", np.uint8, 250, 3), ("char", np.int8, -100, 7), ("ushort", np.uint16, 65000, 311),
                           ("short", np.int16, -32000, 229)):
    want = ((start + idx * step) % (1 << (8 * np.dtype(dt).itemsize))).astype(np.uint64).astype(dt)
    for words in (False, True):
        ref.case("mlx_params_arange_%s%s" % (t, "_words" if words else ""), "arange_" + t,
                 {0: Scalar(t, start), 1: Scalar(t, step), 2: Out(want)}, threadgroup=64, grid=n, push_words=words)
# half: start + half(index) * step rounded in half at each step, as Metal computes it
hs, hp = np.float16(-3.5), np.float16(0.125)
want = (hs + idx.astype(np.float16) * hp).astype(np.float16)
for words in (False, True):
    ref.case("mlx_params_arange_half%s" % ("_words" if words else ""), "arange_half",
             {0: Scalar("half", float(hs)), 1: Scalar("half", float(hp)), 2: Out(want, dict(rtol=1e-3, atol=1e-3))},
             threadgroup=64, grid=n, push_words=words)
# bfloat: index converts to bfloat, and each operation rounds to bfloat (Metal's bfloat arithmetic); products and
# sums of these bfloat values are exact in float32, so rounding the float32 result once is the bfloat operation
bs, bp = to_bf16(np.array([1.5], np.float32)), to_bf16(np.array([-0.25], np.float32))
prod = to_bf16(from_bf16(to_bf16(idx.astype(np.float32))) * from_bf16(bp))
want = to_bf16(from_bf16(bs) + from_bf16(prod))
for words in (False, True):
    ref.case("mlx_params_arange_bfloat%s" % ("_words" if words else ""), "arange_bfloat",
             {0: Bytes(bs.tobytes()), 1: Bytes(bp.tobytes()),
              2: Out(want.view(np.uint16))}, threadgroup=64, grid=n, push_words=words)

x = r.integers(-1000, 1000, 500).astype(np.int32)
for odd, words in ((True, False), (False, False), (True, True), (False, True)):
    ref.case("mlx_params_select_%s%s" % ("odd" if odd else "even", "_words" if words else ""), "select_small",
             {0: x, 1: Out(x + 17 if odd else x - 17), 2: Scalar("bool", odd), 3: Scalar("short", 17)},
             threadgroup=32, grid=500, push_words=words)

# shuffle_small: full SIMD-groups of 32 (two per threadgroup); shuffle_down leaves the last lanes their own value
n = 256
lane = np.arange(n) % 32
for t, dt in (("uchar", np.uint8), ("char", np.int8), ("ushort", np.uint16), ("short", np.int16)):
    info = np.iinfo(dt)
    x = r.integers(info.min, int(info.max) + 1, n).astype(dt)
    def down(d):
        src = np.where(lane + d < 32, np.arange(n) + d, np.arange(n))
        return x[src]
    g = x.reshape(-1, 32)
    sums = np.repeat(g.astype(np.int64).sum(axis=1), 32).astype(np.uint64 if info.min == 0 else np.int64)
    sums = (sums.astype(np.int64) % (1 << (8 * x.itemsize))).astype(np.uint64).astype(dt)
    maxes = np.repeat(g.max(axis=1), 32).astype(dt)
    # fill up by 2 over 32 lanes: lanes 0, 1 take lanes 30, 31 of v + 1 (wrapping), the others lane - 2 of v
    base = np.arange(n) - lane
    filled = np.where(lane >= 2, x[np.arange(n) - 2 * (lane >= 2)], (x[base + 30 + lane % 2].astype(np.int64) + 1).astype(dt))
    for width in WIDTHS:
        ref.case("mlx_params_shuffle_%s_w%d" % (t, width), "shuffle_small_" + t,
                 {0: x, 1: Out(down(3)), 2: Out(down(7)), 3: Out(sums), 4: Out(maxes), 5: Out(filled.astype(dt))},
                 threadgroup=64, grid=n, width=width)

# window_valid: windows of 3 positions, valid when all are even and inside [0, limit)
m, limit = 400, 50
pos = r.integers(-10, 60, 3 * m).astype(np.int32)
pos[: 3 * 40] = 2 * r.integers(0, 25, 3 * 40)  # some windows all valid
w = pos.reshape(m, 3)
valid = np.all((w >= 0) & (w < limit) & (w % 2 == 0), axis=1)
any_odd = (w[:, 0] & 1) != 0
ref.case("mlx_params_window_valid", "window_valid",
         {0: pos, 1: Out(np.where(valid, 1, np.where(any_odd, 2, 0)).astype(np.int32)), 2: Scalar("int", limit)},
         threadgroup=64, grid=m)

# small_in_storage: a 128-byte struct leaves no push-constant room; the bool, uchar and half are storage buffers
rows = r.uniform(-2, 2, (8, 4)).astype(np.float32)
idx = np.arange(100)
for on in (True, False):
    want = (rows[idx % 8, 0] * np.float32(0.75) + np.float32(200)) if on else np.full(100, -1, np.float32)
    ref.case("mlx_params_small_in_storage_%s" % ("on" if on else "off"), "small_in_storage",
             {0: Bytes(rows.tobytes()), 1: Scalar("bool", on), 2: Scalar("uchar", 200), 3: Scalar("half", 0.75),
              4: Out(want.astype(np.float32))}, threadgroup=32, grid=100)

if __name__ == "__main__":
    raise SystemExit(ref.main())
