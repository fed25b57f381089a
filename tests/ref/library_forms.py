#!/usr/bin/python3
"""Reference for samples/library_forms.metal: the forms real libraries write, each checked against NumPy."""
import numpy as np
from refcase import FLOAT_TOL, TRANSCENDENTAL_TOL, Bytes, InOut, Out, Reference, Scalar, rng

ref = Reference("library_forms.metal")
r = rng(41)

# dot_rows_q: rows of 4 blocks-worth... one block_q per row (half d, 16 uchar), 4 float4s of v
rows = 37
d = r.uniform(-2, 2, rows).astype(np.float16)
qs = r.integers(0, 16, (rows, 16)).astype(np.uint8)
blocks = np.zeros(rows, dtype=np.dtype([("d", "<f2"), ("qs", "u1", 16)]))   # Metal: 18 bytes, 2-aligned
blocks["d"], blocks["qs"] = d, qs
v = r.uniform(-1, 1, (4, 4)).astype(np.float32)
deq = d.astype(np.float64)[:, None] * (qs.astype(np.float64) - 8.0)             # (rows, 16)
expected = (deq * v.reshape(16).astype(np.float64)).sum(axis=1).astype(np.float32)
ref.case("dot_rows_q_37", "dot_rows_q", {0: Bytes(blocks.tobytes()), 1: v, 2: Out(expected, tol={"rtol": 1e-5, "atol": 1e-5})},
         threadgroup=16, grid=rows)

x4 = r.uniform(-1, 1, (rows, 4)).astype(np.float32)
v1 = r.uniform(-1, 1, (1, 4)).astype(np.float32)
ref.case("dot_rows_f32_37", "dot_rows_f32", {0: x4, 1: v1, 2: Out((x4.astype(np.float64) @ v1[0]).astype(np.float32))},
         threadgroup=16, grid=rows)

# gelu (tanh form) on float4 and half4, through float
def gelu(x):
    x = x.astype(np.float64)
    return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))

xf = r.uniform(-6, 6, (100, 4)).astype(np.float32)
ref.case("gelu_float_100", "gelu_float", {0: xf, 1: Out(gelu(xf).astype(np.float32), tol=TRANSCENDENTAL_TOL)},
         threadgroup=32, grid=100)
xh = r.uniform(-6, 6, (77, 4)).astype(np.float16)
ref.case("gelu_half_77", "gelu_half", {0: xh, 1: Out(gelu(xh).astype(np.float16), tol={"rtol": 2e-3, "atol": 2e-3})},
         threadgroup=32, grid=77)

# block_sum: per threadgroup of 64, sum of x plus sum of (lid % 2)
groups = 5
xs = r.uniform(-1, 1, groups * 64).astype(np.float32)
sums = xs.reshape(groups, 64).astype(np.float64).sum(axis=1) + 32.0
ref.case("block_sum_5x64", "block_sum_float", {0: xs, 1: Out(sums.astype(np.float32), tol={"rtol": 1e-5, "atol": 1e-5})},
         threadgroup=64, threadgroups=groups)

# complex_square: z * z
z = r.uniform(-2, 2, (50, 2)).astype(np.float32)
zc = z[:, 0].astype(np.float64) + 1j * z[:, 1]
sq = zc * zc
ref.case("complex_square_50", "complex_square",
         {0: InOut(z, np.stack([sq.real, sq.imag], axis=1).astype(np.float32), tol=FLOAT_TOL)}, threadgroup=16, grid=50)

# scale_half: (odd i ? x * half(s) : 0) + half(s) * x, in half arithmetic
xh4 = r.uniform(-4, 4, (61, 4)).astype(np.float16)
sh = np.float16(np.float32(0.75))
odd = (np.arange(61) % 2 == 1)[:, None]
yh = np.where(odd, xh4 * sh, np.float16(0)).astype(np.float16) + (sh * xh4).astype(np.float16)
ref.case("scale_half_61", "scale_half", {0: xh4, 1: Out(yh.astype(np.float16), tol={"rtol": 2e-3, "atol": 2e-3}),
                                         2: Scalar("float", 0.75)}, threadgroup=32, grid=61)

# negate_int: an instance selected by its parameter types
xi = r.integers(-1000, 1000, 99).astype(np.int32)
ref.case("negate_int_99", "negate_int", {0: xi, 1: Out(-xi)}, threadgroup=32, grid=99)

if __name__ == "__main__":
    raise SystemExit(ref.main())
