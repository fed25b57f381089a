#!/usr/bin/python3
"""Reference for samples/steel_forms.metal: forms of MLX's steel kernels, small, against NumPy."""
import numpy as np
from refcase import EXACT, Out, Reference, Scalar, rng

ref = Reference("steel_forms.metal")
r = rng(1515)

# ---- loaders_two_buffers: one loader type over A/As and B/Bs; C = A B^T per batch, and A[r][c + 4] (peek) ----
for batches, k in ((1, 8), (3, 20)):
    a = r.integers(-8, 8, (batches, 4, k)).astype(np.float32)   # small integers: every sum exact in float
    b = r.integers(-8, 8, (batches, 4, k)).astype(np.float32)
    c = np.einsum("gik,gjk->gij", a, b).astype(np.float32)
    peek = a[:, :, 4:8]
    ref.case("steel_loaders_b%d_k%d" % (batches, k), "loaders_two_buffers",
             {0: a.reshape(-1), 1: b.reshape(-1), 2: Out(c.reshape(-1), tol=EXACT), 3: Scalar("int", k),
              4: Out(peek.reshape(-1), tol=EXACT)},
             threadgroup=16, threadgroups=batches)

# ---- complex_tile: a complex tile written whole, read as floats, written back conjugated and reversed ----
for groups in (1, 3):
    x = r.uniform(-4, 4, (groups, 32, 2)).astype(np.float32)   # (real, imag) pairs: cfloat's layout
    y = x[:, ::-1].copy()
    y[..., 1] = -y[..., 1]
    ref.case("steel_complex_tile_g%d" % groups, "complex_tile",
             {0: x.reshape(-1, 2), 1: Out(x[..., 0].reshape(-1), tol=EXACT), 2: Out(x[..., 1].reshape(-1), tol=EXACT),
              3: Out(y.reshape(-1, 2), tol=EXACT)},
             threadgroup=32, threadgroups=groups)

# ---- struct_words: threadgroup bytes read as Pair {float a; int b;}, as floats and as ints ----
x = r.uniform(-4, 4, 64).astype(np.float32)
n = r.integers(-1000, 1000, 64).astype(np.int32)
y = np.empty(64, np.float32)
for g in range(2):
    xs, ns = x[g * 32:(g + 1) * 32], n[g * 32:(g + 1) * 32]
    y[g * 32:(g + 1) * 32] = 2.0 * xs[::-1] + ns.astype(np.float32)   # slot l's a: 2 x[31 - l]
ref.case("steel_struct_words", "struct_words",
         {0: x, 1: n, 2: Out(x, tol=EXACT), 3: Out(n), 4: Out(y, tol=EXACT)}, threadgroup=32, threadgroups=2)

# ---- masked_copy: a NoMask buffer bound but never read; a bool mask ----
x = r.uniform(-4, 4, 100).astype(np.float32)
m = r.integers(0, 2, 100).astype(np.bool_)
ref.case("steel_masked_copy_nomask", "masked_copy_nomask", {0: x, 1: np.zeros(100, np.int8), 2: Out(x, tol=EXACT)},
         threadgroup=32, grid=100)
ref.case("steel_masked_copy_bool", "masked_copy_bool", {0: x, 1: m, 2: Out(np.where(m, x, 0).astype(np.float32), tol=EXACT)},
         threadgroup=32, grid=100)

# ---- row_ops: pointers into a helper's array parameter, written (row max) and read (scale) ----
x = r.uniform(-4, 4, (50, 2, 4)).astype(np.float32)
fl = r.uniform(-1, 3, 50).astype(np.float32)
m = np.maximum(x.max(axis=2), fl[:, None]).astype(np.float32)
ref.case("steel_row_ops", "row_ops",
         {0: x.reshape(-1), 1: fl, 2: Out((x * m[:, :, None]).astype(np.float32).reshape(-1), tol=EXACT),
          3: Out(m.reshape(-1), tol=EXACT)}, threadgroup=16, grid=50)

# ---- gather_rows: an array of pointers kept in a struct; rows past n read as zeros ----
x = r.uniform(-4, 4, (10, 8)).astype(np.float32)
rows = r.integers(0, 13, 12).astype(np.int32)        # some rows past n = 10
xz = np.concatenate([x, np.zeros((3, 8), np.float32)])
y = xz[rows].reshape(3, 4, 8)[:, ::-1].reshape(-1)
ref.case("steel_gather_rows", "gather_rows", {0: x.reshape(-1), 1: rows, 2: Scalar("int", 10), 3: Out(y, tol=EXACT)},
         threadgroup=8, threadgroups=3)

if __name__ == "__main__":
    raise SystemExit(ref.main())
