#!/usr/bin/python3
"""Reference for samples/loop_pragmas.metal: loops under every pragma form the libraries write (the results do not
depend on them), and copies of structs of bytes from buffers at every alignment of their halves."""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("loop_pragmas.metal")
r = rng(91)

n = 40
x = r.uniform(-1, 1, 8 * n).astype(np.float32)
w = r.uniform(-1, 1, 8).astype(np.float32)
v = x.reshape(n, 8).astype(np.float64)
t = np.arange(n)
halvings = np.floor(np.log2(t + 1)) + 1                  # while (n > 0) n /= 2, from n = t + 1
want = v @ w.astype(np.float64) + halvings + 3 - v[:, :4].sum(axis=1) - 0.5 * v[:, 4:].sum(axis=1) + 2 * v[:, :2].sum(axis=1)
ref.case("pragma_forms", "pragma_forms", {0: x, 1: w, 2: Out(want.astype(np.float32), tol={"rtol": 1e-5, "atol": 1e-5})},
         threadgroup=8, grid=n)

groups, per_group = 3, 16 * 32                         # ROWS x COLS * READS halves a threadgroup
src = r.uniform(-4, 4, groups * per_group + 8).astype(np.float16)
for shift in range(8):                                 # 0 and 4: the buffer's half4 reads aligned; others not
    want = (src[shift:shift + groups * per_group].astype(np.float32) * 2).astype(np.float16)
    ref.case("byte_struct_copy_shift%d" % shift, "byte_struct_copy",
             {0: src, 1: Out(want, tol={"rtol": 0, "atol": 0}), 2: Scalar("uint", shift)}, threadgroup=64, threadgroups=groups)

if __name__ == "__main__":
    raise SystemExit(ref.main())
