#!/usr/bin/python3
"""Reference for samples/loop_counters.metal: loops whose counters are 8- or 16-bit integers, widened to int in the
GLSL where their values provably fit, kept (with their wrapping) elsewhere."""
import numpy as np
from refcase import Out, Reference, rng

ref = Reference("loop_counters.metal")
r = rng(77)
TOL = {"rtol": 1e-5, "atol": 1e-5}

n = 40
x = r.uniform(-1, 1, 8 * n).astype(np.float32)
v = x.reshape(n, 8).astype(np.float64)
want = (v[:, 0::2] * 2 + v[:, 1::2]).sum(axis=1)
ref.case("short_step", "short_step", {0: x, 1: Out(want.astype(np.float32), tol=TOL)}, threadgroup=8, grid=n)

x = r.uniform(-1, 1, 256).astype(np.float32)
t = np.arange(n, dtype=np.float64)
ref.case("uchar_top", "uchar_top", {0: x, 1: Out((x[:255].astype(np.float64).sum() + t).astype(np.float32), tol=TOL)},
         threadgroup=8, grid=n)
wrap = x[250:].astype(np.float64).sum() + x[:5].astype(np.float64).sum()
ref.case("uchar_wraps", "uchar_wraps", {0: x, 1: Out((wrap + t).astype(np.float32), tol=TOL)}, threadgroup=8, grid=n)

x = r.uniform(-1, 1, 32).astype(np.float32)
s, i = 0.0, 0
while i < 16:
    s += float(x[i])
    if x[i] < 0:
        i += 1
    i += 1
want = s + 6.0 * x[np.arange(n) % 8].astype(np.float64)       # 0 + 1 + 2 + 3
ref.case("counters_kept", "counters_kept", {0: x, 1: Out(want.astype(np.float32), tol=TOL)}, threadgroup=8, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
