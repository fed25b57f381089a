#!/usr/bin/python3
"""Reference for samples/mathlib.metal: every float and integer library function against NumPy/Python."""
import math

import numpy as np
from refcase import TRANSCENDENTAL_TOL, Out, Reference, rng

f32, f64, U32 = np.float32, np.float64, 0xFFFFFFFF
ref = Reference("mathlib.metal")
r = rng(9)

FLOAT_LABELS = ["abs", "min", "max", "clamp", "mix", "fma", "sqrt", "rsqrt", "exp", "exp2", "exp10", "log", "log2",
                "log10", "pow", "powr", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
                "floor", "ceil", "round", "rint", "trunc", "fract", "fmod", "copysign", "sign", "step", "smoothstep",
                "isnan", "isinf", "isfinite", "signbit", "erf_approx", "precise::sqrt", "precise::exp",
                "precise::tanh", "fast::exp", "fast::sin", "fast::pow", "abs+fast::log", "fmod(-c,1.5)",
                "uint(b*3)", "int(c)+int(-2.5a)"]
INT_LABELS = ["popcount", "clz", "ctz", "mulhi(uint)", "mulhi(int)", "rotate", "extract_bits(uint)",
              "extract_bits(int)", "insert_bits", "reverse_bits", "as_type<uint>(float)", "abs/3-%5", "min^max",
              "clamp>>3", "as_type<float>*2", "float->uint/int"]
MORE_LABELS = ["sinpi", "cospi", "tanpi", "asinpi+acospi", "atanpi", "atan2pi", "fmax3", "fmin3", "fmedian3",
               "median3+max3-min3", "fdim", "divide", "ldexp", "frexp", "frexp exp", "modf", "modf whole", "sincos sin",
               "sincos cos", "isunordered", "isordered", "length_squared", "distance_squared", "reflect.y",
               "faceforward.x", "M_* constants - any(isunordered)"]
INT_MORE_LABELS = ["absdiff(int)", "absdiff(uint)", "hadd", "rhadd", "madhi", "mul24", "mad24", "median3/max3/min3(int)",
                   "max3^min3^median3(uint)"]
SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.5, 1e-30, 3e38, -1e-3], dtype=f32)


def math_float_expected(a, b, z, s):
    a, b, z = a.astype(f64), b.astype(f64), z.astype(f64)
    c = 4.0 * a
    fract = np.minimum(c - np.floor(c), float(np.nextafter(f32(1), f32(0))))
    t = np.clip((a + 0.5) / 1.0, 0.0, 1.0)
    cols = [np.abs(a), np.minimum(a, z), np.maximum(a, z), np.clip(a, -0.5, 0.5), a + (b - a) * 0.25, a * b + 0.5,
            np.sqrt(b), 1 / np.sqrt(b), np.exp(a), np.exp2(a), 10.0 ** a, np.log(b), np.log2(b), np.log10(b),
            b ** a, b ** (2 * a), np.sin(a), np.cos(a), np.tan(a), np.arcsin(f64(f32(0.9) * a.astype(f32))),
            np.arccos(f64(f32(0.9) * a.astype(f32))), np.arctan(c), np.arctan2(a, z), np.sinh(a), np.cosh(a),
            np.tanh(c), np.floor(c), np.ceil(c), np.sign(c) * np.floor(np.abs(c) + 0.5), np.rint(c), np.trunc(c),
            fract, np.fmod(c, z), np.copysign(b, z), np.sign(c), np.where(a < 0.25, 0.0, 1.0), t * t * (3 - 2 * t),
            np.isnan(s), np.isinf(s), np.isfinite(s), np.signbit(s), np.vectorize(math.erf)(c),
            np.sqrt(b), np.exp(a), np.tanh(c), np.exp(a), np.sin(a), b ** a, np.abs(z) + np.log(b),
            np.fmod(-c, 1.5), np.clip(c, -1, 1) + np.floor(b.astype(f32) * f32(3)),
            np.trunc(c) + np.trunc(f32(-2.5) * a.astype(f32))]
    assert len(cols) == len(FLOAT_LABELS)
    return np.stack([np.asarray(col, dtype=f64) for col in cols], axis=1).astype(f32)


def bit_length(v):
    n = np.zeros(v.shape, np.uint64)
    for k in range(32):
        n = np.where(v >> np.uint64(k) != 0, np.uint64(k + 1), n)
    return n


def ctz(v):
    out = np.full(v.shape, 32, np.uint64)
    for k in range(31, -1, -1):
        out = np.where((v >> np.uint64(k)) & np.uint64(1) != 0, np.uint64(k), out)
    return out


def math_int_expected(u, v, f):
    p = u.astype(np.uint64)
    q = v.astype(np.int64)
    shift = p & 31
    offset = (p >> 8) & 15
    bits = (p >> 16) % 17
    mask = (np.uint64(1) << bits) - np.uint64(1)
    low = (p >> offset) & mask
    qlow = (q >> offset.astype(np.int64)) & mask.astype(np.int64)
    sign = np.where(bits > 0, (qlow >> np.maximum(bits.astype(np.int64) - 1, 0)) & 1, 0)
    qext = qlow - (sign << bits.astype(np.int64))
    imask = mask << offset
    rev = np.zeros_like(p)
    for k in range(32):
        rev |= ((p >> np.uint64(k)) & np.uint64(1)) << np.uint64(31 - k)
    popcount = np.zeros_like(p)
    for k in range(32):
        popcount += (p >> np.uint64(k)) & np.uint64(1)
    unit = ((u & 0x007FFFFF) | 0x3F800000).view(f32) * f32(2)
    cols = [popcount, 32 - bit_length(p >> shift), ctz((p << shift) & U32), (p * 0x9E3779B9) >> 32,
            (q * -123456789) >> 32, ((p << shift) | (p >> (32 - shift))), low, qext,
            (p & ~imask) | ((np.uint64(0x5A5A5A5A) << offset) & imask), rev, f.view(np.uint32),
            np.abs(q) // 3 - np.fmod(q, 5), np.minimum(q, 1000) ^ np.maximum(q, -1000), np.clip(q, -70000, 70000) >> 3,
            unit.view(np.uint32), np.trunc(np.abs(f) * f32(100)).astype(np.int64)
            + np.trunc(f * f32(-7)).astype(np.int64)]
    assert len(cols) == len(INT_LABELS)
    return np.stack([np.asarray(col).astype(np.int64) & U32 for col in cols], axis=1).astype(np.uint32)


def math_more_expected(a, b, z, s):
    c = (f32(4) * a).astype(f64)
    a, b, z = a.astype(f64), b.astype(f64), z.astype(f64)
    a9 = (f32(0.9) * a.astype(f32)).astype(f64)
    mant, expo = np.frexp(z.astype(f32) * f32(100))
    frac, whole = np.modf((c.astype(f32) + f32(0.3)).astype(f64))
    stack = np.stack([a, b, z])
    p, q = np.stack([a, b, z], axis=1), np.stack([z, a, b], axis=1)
    n = q / np.linalg.norm(q, axis=1, keepdims=True)
    reflect = p - 2 * np.sum(n * p, axis=1, keepdims=True) * n
    cols = [np.sin(np.pi * c), np.cos(np.pi * c), np.tan(np.pi * 0.2 * a), np.arcsin(a9) / np.pi + np.arccos(a9) / np.pi,
            np.arctan(c) / np.pi, np.arctan2(a, z) / np.pi, stack.max(axis=0), stack.min(axis=0),
            np.median(stack, axis=0), np.median(np.stack([c, a, z]), axis=0) + stack.max(axis=0) - stack.min(axis=0),
            np.maximum(a - z, 0), a / b, b * np.exp2(np.trunc(c)), mant, expo, frac, whole, np.sin(a), np.cos(a),
            np.isnan(s), ~np.isnan(s), np.sum(p * p, axis=1), np.sum((p - q) ** 2, axis=1), reflect[:, 1],
            np.where(z < 0, a, -a), 0.5 + math.sqrt(0.5) * math.log2(math.e) - np.isnan(s)]
    assert len(cols) == len(MORE_LABELS)
    return np.stack([np.asarray(col, dtype=f64) for col in cols], axis=1).astype(f32)


def math_int_more_expected(u, v):
    p = u.astype(np.int64)
    q = v.astype(np.int64)
    t = -np.fix(q / 3).astype(np.int64)
    cols = [np.abs(q - t), np.abs(p - 0x7FFFFFFF), (p + 0xDEADBEEF) >> 1, (q - 1234567 + 1) >> 1,
            ((p * 0x9E3779B9) >> 32) + 5, (p & 0xFFFF) * 300, (p & 0xFFF) * 77 + 11,
            np.median(np.stack([q, np.zeros_like(q), np.full_like(q, 1000)]), axis=0).astype(np.int64)
            + np.maximum(q, 5) - np.minimum(q, -7),
            np.maximum(p, 2) ^ np.minimum(p, 1) ^ np.clip(p, 100, 200)]
    assert len(cols) == len(INT_MORE_LABELS)
    return np.stack([np.asarray(col).astype(np.int64) & U32 for col in cols], axis=1).astype(np.uint32)


for n, tg in ((640, 64), (333, 128)):
    a = r.uniform(-1, 1, n).astype(f32)
    a[: n // 4] = np.round(a[: n // 4] * 8) / 8          # exact eighths: 4a lands on .5 and integers
    a[:3] = (0.0, -0.0, 0.125)
    b = r.uniform(0.5, 2, n).astype(f32)
    z = (r.uniform(0.5, 2, n) * r.choice([-1, 1], n)).astype(f32)
    s = np.resize(SPECIALS, n)
    ref.case("math_float_grid%d_tg%d" % (n, tg), "math_float",
             {0: a, 1: b, 2: z, 3: s, 4: Out(math_float_expected(a, b, z, s), tol=TRANSCENDENTAL_TOL,
                                               labels=FLOAT_LABELS)},
             threadgroup=tg, grid=n)

for n, tg in ((512, 64), (1000, 256)):
    u = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    u[:4] = (0, 1, 0x80000000, 0xFFFFFFFF)
    v = r.integers(-(2**31) + 1, 2**31, n, dtype=np.int64).astype(np.int32)
    v[:4] = (0, -1, 2**31 - 1, -(2**31) + 1)
    f = r.uniform(-4, 4, n).astype(f32)
    ref.case("math_int_grid%d_tg%d" % (n, tg), "math_int",
             {0: u, 1: v, 2: f, 3: Out(math_int_expected(u, v, f), labels=INT_LABELS)}, threadgroup=tg, grid=n)

for n, tg in ((640, 64), (333, 128)):
    a = r.uniform(-1, 1, n).astype(f32)
    a[: n // 4] = np.round(a[: n // 4] * 8) / 8
    a[:3] = (0.0, -0.0, 0.125)
    b = r.uniform(0.5, 2, n).astype(f32)
    z = (r.uniform(0.5, 2, n) * r.choice([-1, 1], n)).astype(f32)
    s = np.resize(SPECIALS, n)
    ref.case("math_more_grid%d_tg%d" % (n, tg), "math_more",
             {0: a, 1: b, 2: z, 3: s, 4: Out(math_more_expected(a, b, z, s), tol=TRANSCENDENTAL_TOL, labels=MORE_LABELS)},
             threadgroup=tg, grid=n)

for n, tg in ((512, 64),):
    u = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    u[:4] = (0, 1, 0x80000000, 0xFFFFFFFF)
    v = r.integers(-(2**31) + 1, 2**31, n, dtype=np.int64).astype(np.int32)
    v[:4] = (0, -1, 2**31 - 1, -(2**31) + 1)
    ref.case("math_int_more_grid%d_tg%d" % (n, tg), "math_int_more",
             {0: u, 1: v, 2: Out(math_int_more_expected(u, v), labels=INT_MORE_LABELS)}, threadgroup=tg, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
