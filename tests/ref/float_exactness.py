#!/usr/bin/python3
"""Reference for samples/float_exactness.metal: arithmetic evaluated and rounded as written (no reassociation, no
contraction), and half exp/log within an ulp. Vulkan compilers reassociate `(x + c) - c` into `x` unless the GLSL
says `precise` (lavapipe does), so each case fails on a translation without it."""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("float_exactness.metal")
r = rng(97)
EXACT = {"rtol": 0, "atol": 0}

# rounding: x + 1.5*2^23 - 1.5*2^23 is round-half-even to an integer, exactly (NumPy's rint)
x = np.concatenate([r.uniform(-1000, 1000, 250), np.array([0.5, 1.5, 2.5, -0.5, -2.5, 3.49, 1e-3, -7.75])])
x = x.astype(np.float32)
want = np.rint(x).astype(np.float32)
ref.case("float_exactness_rounding", "rounding", {0: x, 1: Out(want, tol=EXACT), 2: Out(want, tol=EXACT)},
         threadgroup=64, grid=x.size)

# compensated sum: rows whose float32 sums lose bits (large and small terms); s is the float32 running sum and
# s + c recovers the exact sum (|error| below float's resolution of the compensation)
rows, n = 37, 64
v = (r.uniform(-1, 1, (rows, n)) * np.exp2(r.integers(-20, 20, (rows, n)))).astype(np.float32)
s = np.zeros(rows, dtype=np.float32)
c = np.zeros(rows, dtype=np.float64)
for k in range(n):                       # the kernel's float32 sequence; c exactly as two-sum gives it
    t = (s + v[:, k]).astype(np.float32)
    c += (s.astype(np.float64) + v[:, k].astype(np.float64)) - t.astype(np.float64)
    s = t
exact = v.astype(np.float64).sum(axis=1)
assert np.all(np.abs(s.astype(np.float64) + c - exact) <= 1e-6 * np.abs(exact).max())
got = np.stack([s, c.astype(np.float32)], axis=1)
ref.case("float_exactness_compensated_sum", "compensated_sum",
         {0: v.reshape(-1), 1: Out(got, tol={"rtol": 1e-5, "atol": 0}), 2: Scalar("uint", n)},
         threadgroup=32, grid=rows)

# half exp and log: the exactly rounded half result, one half ulp allowed
h = np.concatenate([r.uniform(-8, 10.5, 300), np.array([7.0, 9.0, -6.0, 0.0])]).astype(np.float16)
e = np.exp(h.astype(np.float64)).astype(np.float16)
lg = np.log((np.abs(h) + np.float16(1)).astype(np.float16).astype(np.float64)).astype(np.float16)   # the sum is a half
ref.case("float_exactness_half_functions", "half_functions",
         {0: h, 1: Out(e, tol={"rtol": 2.0 ** -10, "atol": 0}), 2: Out(lg, tol={"rtol": 2.0 ** -10, "atol": 2.0 ** -24})},
         threadgroup=64, grid=h.size)

if __name__ == "__main__":
    raise SystemExit(ref.main())
