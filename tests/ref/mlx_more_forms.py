#!/usr/bin/python3
"""Reference for samples/mlx_more_forms.metal: MLX's integer Power with its os_log call (dropped: the numbers are
the same), arrays and structs of a complex type with constructors initialized from `{0}`, `{2}`, `{{re, im}, ...}`,
`{}` and member lists (each element made by the constructor clang picks, the rest by the default constructor),
checked against NumPy complex64, and a union returned by a function, written lane by lane and read as bytes
(random.metal's threefry form)."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng

ref = Reference("mlx_more_forms.metal")
r = rng(1313)

# int_power: wrapping int32 powers; a negative exponent gives 0 (and a log message Metal prints only when asked)
n = 300
base = r.integers(-6, 7, n).astype(np.int32)
expo = r.integers(-3, 11, n).astype(np.int32)
with np.errstate(over="ignore"):
    pw = np.array([0 if e < 0 else int(np.prod(np.full(e, b, np.int64))) for b, e in zip(base, expo)], np.int64)
pw = ((pw + 2**31) % 2**32 - 2**31).astype(np.int32)
ref.case("mlx_more_forms_int_power", "int_power", {0: base, 1: expo, 2: Out(pw)}, threadgroup=64, grid=n)

# complex_gemv: y = A x in complex64 per row of 4; row 0 of each group starts at 0 (cplx(0)), rows 1..3 at the
# default constructor's (0.25 - 0.5i)
g, k = 24, 37
a = (r.uniform(-1, 1, (g * 4, k)) + 1j * r.uniform(-1, 1, (g * 4, k))).astype(np.complex64)
x = (r.uniform(-1, 1, k) + 1j * r.uniform(-1, 1, k)).astype(np.complex64)
start = np.tile(np.array([0, 0.25 - 0.5j, 0.25 - 0.5j, 0.25 - 0.5j], np.complex64), g)
y = start.astype(np.complex128) + (a.astype(np.complex128) @ x.astype(np.complex128))
y = y.astype(np.complex64)
extra = np.zeros((g, 9, 2), np.float32)
extra[:, 0] = [2, 0]             # two[0] = cplx(2)
extra[:, 1] = [0.25, -0.5]       # two[2]: the default constructor
extra[:, 2] = [1, 2]             # listed[0] = cplx(1, 2): real 1, imag 2 (fields are imag, real)
extra[:, 3] = [3, 4]
extra[:, 4] = [0.25, -0.5]       # none[1] = {}: the default constructor
extra[:, 5] = [5, 6]             # p.first = {5, 6}
extra[:, 6] = [7, 0]             # p.second = 7: the converting constructor
extra[:, 7, 0] = (y[0::4] - y[1::4]).real
extra[:, 7, 1] = k
extra[:, 8, 0] = np.arange(g)
c2 = lambda v: np.stack([v.real, v.imag], axis=-1).astype(np.float32)
ref.case("mlx_more_forms_complex_gemv", "complex_gemv",
         {0: c2(a), 1: c2(x), 2: Out(c2(y), tol={"rtol": 1e-5, "atol": 2e-5}), 3: Out(extra, tol={"rtol": 1e-5, "atol": 2e-5}),
          4: Scalar("int", k)}, threadgroup=8, grid=g)

# union_bytes: the hash's two words as 8 little-endian bytes; only `limit` bytes of the second word are written
def mix(key, c0, c1):
    m = 0xFFFFFFFF
    vx, vy = (c0 + key[0]) & m, (c1 + key[1]) & m
    for _ in range(3):
        vx = (vx + vy) & m
        vy = ((vy << 13) | (vy >> 19)) & m
        vy ^= vx
    return vx, vy

keys = np.array([0x9E3779B9, 0x7F4A7C15], np.uint32)
m, limit = 100, 3
init = np.full(8 * m, 0xAB, np.uint8)
exp = init.copy()
for i in range(m):
    vx, vy = mix([int(keys[0]), int(keys[1])], i, (i * 7) & 0xFFFFFFFF)
    exp[8 * i:8 * i + 4] = np.frombuffer(np.uint32(vx).tobytes(), np.uint8)
    exp[8 * i + 4:8 * i + 4 + limit] = np.frombuffer(np.uint32(vy).tobytes(), np.uint8)[:limit]
ref.case("mlx_more_forms_union_bytes", "union_bytes", {0: keys, 1: InOut(init, exp), 2: Scalar("uint", limit)},
         threadgroup=32, grid=m)

# ctor_lists: {re, im} lists through the constructor (the fields are declared imag first)
m = 64
v = r.uniform(-4, 4, m).astype(np.float32)
cl = np.zeros((m, 4, 2), np.float32)
cl[:, 0, 0], cl[:, 0, 1] = v, 2
cl[:, 1, 0], cl[:, 1, 1] = 3, v + np.float32(1)
cl[:, 2, 0], cl[:, 2, 1] = v * np.float32(2), -1
cl[:, 3, 0], cl[:, 3, 1] = 4, v
ref.case("mlx_more_forms_ctor_lists", "ctor_lists", {0: v, 1: Out(cl)}, threadgroup=32, grid=m)

# optional_bias: without do_axpby the host binds neither bias nor alpha; with it, y = 2x + alpha * bias
m = 200
xb = r.uniform(-3, 3, m).astype(np.float32)
bias = r.uniform(-3, 3, m).astype(np.float32)
ref.case("mlx_more_forms_optional_bias_absent", "optional_bias", {0: xb, 2: Out(xb * np.float32(2))},
         threadgroup=64, grid=m, constants={7: Scalar("bool", False)})
ref.case("mlx_more_forms_optional_bias_unset", "optional_bias", {0: xb, 2: Out(xb * np.float32(2))},
         threadgroup=64, grid=m)
ref.case("mlx_more_forms_optional_bias", "optional_bias",
         {0: xb, 1: bias, 2: Out(xb * np.float32(2) + np.float32(0.75) * bias), 3: Scalar("float", 0.75)},
         threadgroup=64, grid=m, constants={7: Scalar("bool", True)})

if __name__ == "__main__":
    raise SystemExit(ref.main())
