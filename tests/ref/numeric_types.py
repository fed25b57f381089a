#!/usr/bin/python3
"""Reference for samples/numeric_types.metal: half arithmetic, 8/16/64-bit integers, conversions."""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("numeric_types.metal")
r = rng(53)
HALF_TOL = {"rtol": 2e-3, "atol": 2e-3}     # one rounding of each half operation


def half_axpb(name, n, tg):
    x = r.uniform(-8, 8, n).astype(np.float16)
    a, b = 1.5, -0.25
    y = (np.float16(a) * x + np.float16(b)).astype(np.float16)
    ref.case(name, "half_axpb", {0: x, 1: Out(y, tol=HALF_TOL), 2: Scalar("float", a), 3: Scalar("float", b)},
             threadgroup=tg, grid=n)


def half4(name, n, tg):
    x = r.uniform(-4, 4, (n, 4)).astype(np.float16)
    y = (x * np.float16(0.5) + x[:, ::-1]).astype(np.float16)
    ref.case(name, "half4_scale", {0: x, 1: Out(y, tol=HALF_TOL)}, threadgroup=tg, grid=n)


def small_ints(name, n, tg):
    c = r.integers(-128, 128, n).astype(np.int8)
    u = r.integers(0, 256, n).astype(np.uint8)
    s = r.integers(-32768, 32768, n).astype(np.int16)
    c_out = (c.astype(np.int32) * 3 + u.astype(np.int8).astype(np.int32)).astype(np.int8)   # wraps to 8 bits
    s_out = (s.astype(np.uint16).astype(np.int32) * 7 + u.astype(np.int32)).astype(np.uint16)
    l_out = s.astype(np.int64) * 100000 * u.astype(np.int64) + c.astype(np.int64)
    ref.case(name, "small_ints", {0: c, 1: u, 2: s, 3: Out(c_out), 4: Out(s_out), 5: Out(l_out)},
             threadgroup=tg, grid=n)


def conversions(name, n, tg):
    f = r.uniform(-1000, 1000, n).astype(np.float32)
    i_out = np.trunc(f).astype(np.int32)
    h = np.trunc(f * np.float32(16)).astype(np.int32).astype(np.float16)       # nearest half
    u64 = np.arange(n, dtype=np.uint64) * np.uint64(0x100000001) + (np.uint64(1) << np.uint64(40))
    ref.case(name, "conversions", {0: f, 1: Out(i_out), 2: Out(h, tol={"rtol": 0, "atol": 0}), 3: Out(u64)},
             threadgroup=tg, grid=n)


def int_vectors(name, n, tg):
    c = r.integers(-128, 128, (n, 4)).astype(np.int8)
    s = r.integers(0, 65536, (n, 2)).astype(np.uint16)
    l = r.integers(-(1 << 40), 1 << 40, (n, 2)).astype(np.int64)
    c_out = c.astype(np.int32) * 2 - c[:, ::-1].astype(np.int32)
    s_out = (s.astype(np.int64) * np.array([3, 5]) + s[:, ::-1].astype(np.int64)).astype(np.uint16)   # wraps
    l_out = l * np.array([1000000, -3], dtype=np.int64) + np.arange(n, dtype=np.int64)[:, None]
    ref.case(name, "int_vectors", {0: c, 1: s, 2: l, 3: Out(c_out), 4: Out(s_out), 5: Out(l_out)},
             threadgroup=tg, grid=n)


def as_type_bits(name, n, tg):
    f = r.uniform(-100, 100, (n, 2)).astype(np.float32)
    bits = f.view(np.uint32)
    bits[:, 0] &= 0xFFFF3FFF        # the low word's low half, read as a half, stays finite
    u = bits.copy().view(np.uint64).reshape(n)
    halves = u.view(np.uint32).reshape(n, 2).copy()
    floats = u.view(np.float32).reshape(n, 2).copy()
    back = u.view(np.int64) + 1
    h2 = halves[:, 0].copy().view(np.float16).reshape(n, 2)
    b4 = halves[:, 0].copy().view(np.uint8).reshape(n, 4)
    ref.case(name, "as_type_bits", {0: u, 1: Out(halves), 2: Out(floats, tol={"rtol": 0, "atol": 0}), 3: Out(back),
                                    4: Out(h2, tol={"rtol": 0, "atol": 0}), 5: Out(b4)}, threadgroup=tg, grid=n)


half_axpb("half_axpb_1000", 1000, 64)
half4("half4_scale_500", 500, 32)
small_ints("small_ints_4096", 4096, 128)
conversions("conversions_2000", 2000, 64)
int_vectors("int_vectors_777", 777, 64)
as_type_bits("as_type_bits_300", 300, 32)

if __name__ == "__main__":
    raise SystemExit(ref.main())
