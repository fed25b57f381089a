#!/usr/bin/python3
"""Reference for samples/pytorch_forms.metal: c10's ref_at_offs (references at byte offsets through
reinterpret_cast, returned by a helper and assigned through), const_cast, chbevl's unsized array parameter, and a
switch on a long."""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("pytorch_forms.metal")
r = rng(2024)


def mul_case(name, entry, dtype, n, in_step, other_step, tg):
    size = np.dtype(dtype).itemsize
    # integers (also as floats: products and sums exact, so the bytes compare exactly whatever the rounding mode)
    a = r.integers(-1000, 1000, n * in_step).astype(dtype)
    b = r.integers(-1000, 1000, n * other_step).astype(dtype)
    expected = (a[::in_step][:n] * b[::other_step][:n] + dtype(1)).astype(dtype)
    # `device char*` buffers: the values' bytes
    ref.case(name, entry, {0: Out(expected.view(np.int8)), 1: a.view(np.int8), 2: b.view(np.int8),
                           3: Scalar("long", in_step * size), 4: Scalar("long", other_step * size)},
             threadgroup=tg, grid=n)


def chbevl(x, table):
    b0, b1, b2 = np.float32(table[0]), np.float32(0), np.float32(0)
    for c in table[1:]:
        b2, b1 = b1, b0
        b0 = np.float32(x * b1 - b2 + np.float32(c))
    return np.float32(0.5) * (b0 - b2)


def series_case(name, n, base, tg):
    A = [1.0, -0.5, 0.25]
    B = [0.125, 2.0, -1.0, 0.5, 3.0]
    out = np.empty(n, dtype=np.float32)
    for i in range(n):
        x = np.float32(i % 7) * np.float32(0.25)
        s = base + i % 4
        out[i] = chbevl(x, A) if s == 0 else chbevl(x, B) if s == 1 else np.float32(100)
    ref.case(name, "series", {0: Out(out, tol={"rtol": 1e-6, "atol": 1e-6}), 1: Scalar("long", base)},
             threadgroup=tg, grid=n)


mul_case("pytorch_forms_mul_strided_float", "mul_strided_float", np.float32, 500, 3, 1, 64)
mul_case("pytorch_forms_mul_strided_int", "mul_strided_int", np.int32, 300, 2, 5, 32)
series_case("pytorch_forms_series", 100, 0, 32)
series_case("pytorch_forms_series_past_32_bits", 100, 1 << 32, 32)     # low bits 0..3: every value the default

if __name__ == "__main__":
    raise SystemExit(ref.main())
