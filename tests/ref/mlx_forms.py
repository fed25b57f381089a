#!/usr/bin/python3
"""Reference for samples/mlx_forms.metal: MLX's uniform<T> loop bounds, a complex type's constructors, conversion
operators and reference-returning operator+=, arrays of structs made by their constructor, conversions to bool,
numeric_limits' infinities and NaNs for float, half and bfloat, and bytes read as a struct through a cast pointer
(MLX's fp4 dequantization)."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng, to_bf16

ref = Reference("mlx_forms.metal")
r = rng(131)
f32 = np.float32

# uniform_rows: n = 10: two blocks of 4 weighted 1..4, then 2 leftovers weighted 100, all halved
rows, n = 64, 10
x = r.uniform(-2, 2, (rows, n)).astype(f32)
s = np.zeros(rows, f32)
for i in range(2):
    for j in range(4):
        s = s + x[:, i * 4 + j] * f32(j + 1)
for j in range(2):
    s = s + x[:, 8 + j] * f32(100)
ref.case("mlx_forms_uniform_rows", "uniform_rows", {0: x.reshape(-1), 1: Out(s * f32(0.5)), 2: Scalar("int", n)},
         threadgroup=32, grid=rows)

# complex_ops: inputs are multiples of 1/4 in [-4, 4), so every sum and product is exact in half too
m = 100
xc = (r.integers(-16, 16, (m, 2)) / 4).astype(f32)
for t, dt in (("float", np.float32), ("half", np.float16)):
    a_re, a_im = xc[:, 0].astype(dt), xc[:, 1].astype(dt)
    one, two, zero = dt(1), dt(2), dt(0)
    acc0_re, acc0_im = one + a_re, zero + a_im          # acc[0] = (1, 0) += a
    b_re, b_im = two + a_re, zero + a_im                # acc[1] = 2 -> (2, 0), += a; b is its value
    p_re = acc0_re * b_re - acc0_im * b_im
    p_im = acc0_re * b_im + acc0_im * b_re
    out = np.stack([p_re, p_im], axis=1).astype(f32)
    re_out = (one + b_re).astype(dt)                    # acc[2] is (1, 0): its re, plus b's re
    flags = 1 + np.where(xc[:, 0] > 0, 2, 0) + np.trunc(b_re.astype(f32)).astype(np.int32) * 4
    ref.case("mlx_forms_complex_ops_" + t, "complex_ops_" + t,
             {0: xc.reshape(-1), 1: Out(out), 2: Out(re_out), 3: Out(flags.astype(np.int32))}, threadgroup=32, grid=m)

# limits: inf, -inf, NaN, max per type, compared bit for bit (float and half as their bits; bfloat is bits)
k = 8
inf, nan = np.float32(np.inf), np.float32(np.nan)
f_exp = np.tile(np.array([inf, -inf, nan, np.finfo(f32).max], f32), k)
h_exp = np.tile(np.array([np.inf, -np.inf, np.nan, 65504.0], np.float16), k)
b_exp = np.tile(to_bf16(np.array([inf, -inf, nan, np.float32(float.fromhex("0x1.fep+127"))], f32)), k)
ref.case("mlx_forms_limits", "limits", {0: Out(f_exp, bits=True), 1: Out(h_exp, bits=True), 2: Out(b_exp)},
         threadgroup=8, grid=k)

# fp4_decode: every byte's low nibble as fp4 e2m1 (sign bit 3, magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6), and
# ushorts' bits read as halves
q = np.arange(256, dtype=np.uint8)
mag = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], f32)[q & 7]
fp4 = np.where(q & 8, -mag, mag).astype(f32)
hv = r.uniform(-1000, 1000, 256).astype(np.float16)
dec = np.stack([fp4, hv.astype(f32)], axis=1).reshape(-1)
ref.case("mlx_forms_fp4_decode", "fp4_decode", {0: q, 1: hv.view(np.uint16), 2: Out(dec, bits=True)},
         threadgroup=64, grid=256)

# padded_reverse: 64 complex values, the first n from the buffer and the rest PadValue's (-1.5, 2.25), written
# reversed; the _idx instance also writes its indices (10 * lane, reversed), the _vals one leaves idx_out alone
for name, with_idx, n in (("idx", True, 50), ("vals", False, 37)):
    c = r.uniform(-5, 5, (64, 2)).astype(f32)
    padded = c.copy()
    padded[n:] = [-1.5, 2.25]
    idx = np.arange(64, dtype=np.uint32)[::-1] * 10 if with_idx else np.full(64, 7, np.uint32)
    bufs = {0: c.reshape(-1), 1: Out(padded[::-1].reshape(-1)), 3: Scalar("int", n)}
    bufs[2] = Out(idx) if with_idx else InOut(idx, idx.copy())
    ref.case("mlx_forms_padded_reverse_" + name, "padded_reverse_" + name, bufs, threadgroup=64, grid=64)

# row_pointers: per thread, the sums of rows 2g and 2g + 1 of n, the second plus the first element of row 2g + 2
g, n = 40, 13
rows = r.uniform(-1, 1, (2 * g + 1, n)).astype(f32)
sums = rows[: 2 * g].sum(axis=1, dtype=np.float64)
sums[1::2] += rows[2::2, 0]
ref.case("mlx_forms_row_pointers", "row_pointers", {0: rows.reshape(-1), 1: Out(sums.astype(f32)), 2: Scalar("int", n)},
         threadgroup=16, grid=g)

# row_pointer_one: the sum of row g plus the first element of row g + 1; the bfloat output is the sum rounded
g1 = 50
rows1 = r.uniform(-1, 1, (g1 + 1, n)).astype(f32)
sums1 = np.zeros(g1, f32)
for i in range(n):                      # in the kernel's order, in float32: the bfloat rounding sees the same sum
    sums1 = sums1 + rows1[:g1, i]
ref.case("mlx_forms_row_pointer_one", "row_pointer_one",
         {0: rows1.reshape(-1), 1: Out(sums1 + rows1[1:, 0]), 2: Out(to_bf16(sums1)), 3: Scalar("int", n)},
         threadgroup=16, grid=g1)

# odometer: four steps each; past `size` the index restarts at 0, counts a carry and goes on with what is left
def odometer(steps, size):
    index = carries = 0
    for n in steps:
        while True:                      # the kernel's tail call, as the loop it means
            index += int(n)
            if index < size:
                break
            extra = index - size
            index, carries = 0, carries + 1
            if extra <= 0:
                break
            n = extra
    return index, carries


size = 7
steps = r.integers(0, 30, (96, 4)).astype(np.int32)
odo = np.array([odometer(row, size) for row in steps], np.int32).reshape(-1)
ref.case("mlx_forms_odometer", "odometer", {0: steps.reshape(-1), 1: Out(odo), 2: Scalar("int", size)},
         threadgroup=32, grid=96)

# rotate_rounds: three rounds of threefry's mix with the rotations of row k % 2, then x += e * y for e = 1, 2, 3
rot_table = [[13, 15, 26, 6], [17, 29, 16, 24]]
pairs = r.integers(0, 2**32, (200, 2), dtype=np.uint64).astype(np.uint32)
x, y = pairs[:, 0].astype(np.uint64), pairs[:, 1].astype(np.uint64)
m = np.uint64(0xFFFFFFFF)
for k in range(3):
    for rot in rot_table[k % 2]:
        x = (x + y) & m
        y = ((y << np.uint64(rot)) & m) | (y >> np.uint64(32 - rot))
        y ^= x
for e in (1, 2, 3):
    x = (x + np.uint64(e) * y) & m
ref.case("mlx_forms_rotate_rounds", "rotate_rounds", {0: pairs.reshape(-1),
         1: Out(np.stack([x, y], axis=1).astype(np.uint32).reshape(-1))}, threadgroup=64, grid=200)

if __name__ == "__main__":
    raise SystemExit(ref.main())
