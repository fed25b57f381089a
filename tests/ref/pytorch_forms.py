#!/usr/bin/python3
"""Reference for samples/pytorch_forms.metal: c10's ref_at_offs (references at byte offsets through
reinterpret_cast, returned by a helper and assigned through), const_cast, chbevl's unsized array parameter, and a
switch on a long, c10::metal::array (metal::array<T, N>), explicit instances named across macro lines, and all/any of
half, long and char vector comparisons, static_cast<decltype(x.y)> of a converted value,
compound assignments through ref_at_offs on bfloat, half and int (the helper's call printed twice),
two overloaded kernel templates instantiated by their parameter lists, a bfloat3 declared without a value,
gamma and log_gamma calling each other under guards that stop the recursion."""
import numpy as np
from refcase import EXACT, Bytes, InOut, Out, Reference, Scalar, rng

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


# struct ShapeParams { array<int, 3> sizes; float scale; }: sizes 0, scale 12; 16 bytes
SHAPE = np.dtype({"names": ["sizes", "scale"], "formats": [("<i4", 3), "<f4"], "offsets": [0, 12], "itemsize": 16})


def coords_array_case(name, sizes, tg):
    n = int(np.prod(sizes))
    idx = np.arange(n)
    pos = []
    for s in sizes:
        pos.append(idx % s)
        idx = idx // s
    pos = np.stack(pos, axis=1)
    params = np.zeros(1, dtype=SHAPE)
    params["sizes"] = (9, 8, 7)
    params["scale"] = 0.5
    w = ((pos[:, 0] + 7).astype(np.float32) * np.float32(0.5)).astype(np.int32)
    expected = np.stack([pos[:, 2], pos[:, 1], pos[:, 0], w], axis=1).astype(np.int32)
    ref.case(name, "coords_array", {0: Out(expected), 1: Bytes(np.array(sizes, dtype=np.int32).tobytes()),
                                    2: Bytes(params.tobytes())}, threadgroup=tg, grid=n)


# struct GatherParams { int ndim; int mode; array<long, 4> sizes; array<long, 4> strides; }: 72 bytes
GATHER = np.dtype({"names": ["ndim", "mode", "sizes", "strides"], "formats": ["<i4", "<i4", ("<i8", 4), ("<i8", 4)],
                   "offsets": [0, 4, 8, 40], "itemsize": 72})


def gather_case(name, sizes, strides, mode, tg):
    """out[t] = in[offset of t's coordinates (innermost first) through strides], times strides[0] in mode 1."""
    n = int(np.prod(sizes))
    span = sum((s - 1) * st for s, st in zip(sizes, strides)) + 1
    src = r.standard_normal(span).astype(np.float32)
    idx = np.arange(n)
    off = np.zeros(n, dtype=np.int64)
    for s, st in zip(sizes, strides):
        off += (idx % s) * st
        idx //= s
    expected = src[off] * (np.float32(strides[0]) if mode else np.float32(1))
    params = np.zeros(1, dtype=GATHER)
    params["ndim"], params["mode"] = len(sizes), mode
    params["sizes"][0, :len(sizes)] = sizes
    params["strides"][0, :len(strides)] = strides
    ref.case(name, "gather_strided", {0: src, 1: Out(expected.astype(np.float32)), 2: Bytes(params.tobytes())},
             threadgroup=tg, grid=n)


def logsumexp_case(name, n, tg):
    a = r.uniform(-20, 20, n).astype(np.float32)
    b = r.uniform(-20, 20, n).astype(np.float32)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    expected = np.stack([np.logaddexp(a64, b64), np.logaddexp(np.logaddexp(a64, b64), a64 - b64)], axis=1)
    ref.case(name, "logsumexp3", {0: a, 1: b, 2: Out(expected.astype(np.float32), tol={"rtol": 1e-5, "atol": 1e-5})},
             threadgroup=tg, grid=n)


def frexp_case(name, n, tg):
    x = (r.uniform(0.5, 1, n) * np.exp2(r.integers(-60, 60, n)) * r.choice([-1, 1], n)).astype(np.float32)
    m1, e1 = np.frexp(x)
    m2, e2 = np.frexp(x * np.float32(3))
    ref.case(name, "frexp_forms", {0: x, 1: Out(np.stack([m1, m2], axis=1).astype(np.float32), tol=EXACT),
                                   2: Out(np.stack([e1, e2], axis=1).astype(np.int32))}, threadgroup=tg, grid=n)


def gather_checked_case(name, n, size, bad_at, bad_value, tg):
    """One out-of-range index: the kernel reports it (c10's TORCH_REPORT_ERROR form) and writes 0 there."""
    index = r.integers(0, size, n).astype(np.int64)
    index[bad_at] = bad_value
    src = r.standard_normal(size).astype(np.float32)
    out = np.where(index == bad_value, np.float32(0), src[np.clip(index, 0, size - 1)]).astype(np.float32)
    # struct Reports { atomic_uint count; Report report[2]; }, Report { char where[32]; char text[64]; uint line; }
    reports = np.zeros(204, dtype=np.uint8)
    reports[0:4] = np.frombuffer(np.uint32(1).tobytes(), dtype=np.uint8)
    where = b"gather_checked\0"
    text = b"index %d is out of bounds for size %d\0" % (bad_value, size)
    reports[4:4 + len(where)] = np.frombuffer(where, dtype=np.uint8)
    reports[36:36 + len(text)] = np.frombuffer(text, dtype=np.uint8)
    reports[100:104] = np.frombuffer(np.uint32(7).tobytes(), dtype=np.uint8)
    ref.case(name, "gather_checked", {0: index, 1: src, 2: Out(out, tol=EXACT),
                                      3: InOut(np.zeros(204, dtype=np.uint8), reports), 4: Scalar("long", size)},
             threadgroup=tg, grid=n)


def bit_counts(v, bits):
    v = [int(x) & ((1 << bits) - 1) for x in np.ravel(v)]
    clz = [bits - x.bit_length() for x in v]
    ctz = [bits if x == 0 else (x & -x).bit_length() - 1 for x in v]
    pop = [bin(x).count("1") for x in v]
    return np.array(clz), np.array(ctz), np.array(pop)


def narrow_bits_case(name, n, tg):
    a = r.integers(0, 1 << 16, n).astype(np.uint16)
    a[:4] = [0, 1, 0x8000, 0xFFFF]
    b = r.integers(-128, 128, (n, 2)).astype(np.int8)
    b[0] = [0, -1]
    b[1] = [1, -128]
    clz, ctz, pop = bit_counts(a, 16)
    out = np.stack([clz, ctz, pop, clz], axis=1).astype(np.int32)
    bclz, bctz, bpop = (x.reshape(n, 2) for x in bit_counts(b, 8))
    out8 = np.concatenate([bclz, bctz + bpop * 16], axis=1).astype(np.int8)
    ref.case(name, "narrow_bits", {0: a, 1: b, 2: Out(out), 3: Out(out8)}, threadgroup=tg, grid=n)


def sub_scaled_case(name, entry, dtype, n, alpha, tg):
    a = r.integers(-1000, 1000, n).astype(dtype)
    b = r.integers(-1000, 1000, n).astype(dtype)
    mtl = "float" if dtype == np.float32 else "int"
    ref.case(name, entry, {0: Out((a - dtype(alpha) * b).astype(dtype)), 1: a, 2: b, 3: Scalar(mtl, alpha)},
             threadgroup=tg, grid=n)


def vector_masks_case(name, n, tg):
    """Pairs drawn from few values, so that equal, smaller and larger elements all occur."""
    h = r.integers(-2, 3, (2 * n, 2)).astype(np.float16)
    lg = (r.integers(-2, 3, (2 * n, 2)) * (1 << 33)).astype(np.int64)   # past 32 bits: compared as longs
    c = r.integers(-2, 3, (2 * n, 3)).astype(np.int8)
    ha, hb, la, lb, ca, cb = h[0::2], h[1::2], lg[0::2], lg[1::2], c[0::2], c[1::2]
    want = ((ha == hb).all(1) * 1 | (ha != hb).any(1) * 2 | (la < lb).all(1) * 4 | (la >= lb).any(1) * 8 |
            (ca <= cb).all(1) * 16 | (ca > cb).any(1) * 32).astype(np.uint32)
    # char3 elements are 4 bytes apart in Metal (a 3-vector is aligned as a 4-vector)
    c4 = np.zeros((2 * n, 4), np.int8)
    c4[:, :3] = c
    ref.case(name, "vector_masks", {0: h, 1: lg, 2: c4, 3: Out(want)}, threadgroup=tg, grid=n)


def half_roots_case(name, n, tg):
    a = r.uniform(-4, 4, (n, 2)).astype(np.float32)
    h = r.uniform(-4, 4, (n, 2)).astype(np.float16)
    h[:, 0] = np.abs(h[:, 0])       # no cancellation in m + x.x, where half's rounding of m would show

    def roots(v):
        """length and the sum in the vector's type (half rounds each), the square root of float * 0.5"""
        t = v.dtype.type
        m = t(np.hypot(v[:, 0].astype(np.float64), v[:, 1].astype(np.float64)))
        return np.stack([np.sqrt((m + v[:, 0]).astype(np.float64) * 0.5), v[:, 1].astype(np.float64) * 2], axis=1)
    ref.case(name, "half_roots", {0: a, 1: h, 2: Out(roots(a).astype(np.float32), tol={"rtol": 1e-5, "atol": 1e-5}),
                                  3: Out(roots(h).astype(np.float16), tol={"rtol": 2e-3, "atol": 2e-3})},
             threadgroup=tg, grid=n)


def to_bf16_exact(f):
    """float32 values that bfloat16 holds exactly -> their bfloat16 bits"""
    bits = np.asarray(f, dtype=np.float32).view(np.uint32)
    assert not (bits & 0xFFFF).any()
    return (bits >> 16).astype(np.uint16)


def accumulate_case(name, entry, n, terms, stride_elems, tg):
    """out[i * stride] = (out[i * stride] + sum of terms inputs) * 0.5 in T (bfloat or half) through ref_at_offs;
    the elements between stay. Small integers and halves: exact in both types, so the bytes compare exactly."""
    inp = r.integers(-8, 9, n * terms).astype(np.float32)
    init = r.integers(-40, 41, n * stride_elems).astype(np.float32)
    want = init.copy()
    want[::stride_elems] = (init[::stride_elems] + inp.reshape(n, terms).sum(1)) * np.float32(0.5)
    conv = to_bf16_exact if entry.endswith("bfloat") else (lambda v: v.astype(np.float16))
    ref.case(name, entry, {0: InOut(conv(init).view(np.int8), conv(want).view(np.int8)), 1: conv(inp).view(np.int8),
                           2: Scalar("long", stride_elems * 2), 3: Scalar("int", terms)}, threadgroup=tg, grid=n)


# remainder_at_offs' records: an int at byte 0, a short at byte 4, 2 bytes that stay
REM = np.dtype({"names": ["i", "s", "pad"], "formats": ["<i4", "<i2", "<i2"], "offsets": [0, 4, 6], "itemsize": 8})


def remainder_case(name, n, m, tg):
    """C's % (truncating: the sign of the dividend) on an int and a short at byte offsets"""
    rec = np.zeros(n, dtype=REM)
    rec["i"] = r.integers(-100000, 100000, n)
    rec["s"] = r.integers(-30000, 30000, n)
    rec["pad"] = r.integers(-30000, 30000, n)
    want = rec.copy()
    want["i"] = np.fmod(rec["i"], m)
    want["s"] = np.fmod(rec["s"], np.int16(m))
    ref.case(name, "remainder_at_offs", {0: InOut(rec.view(np.int8), want.view(np.int8)), 1: Scalar("int", m),
                                         2: Scalar("long", REM.itemsize)}, threadgroup=tg, grid=n)


def sgd_case(name, n, momentum, tg):
    """sgd_step's two overloads: param -= lr * grad, or with a velocity (v = momentum * v + grad)"""
    param = r.standard_normal(n).astype(np.float32)
    grad = r.standard_normal(n).astype(np.float32)
    lr = np.float32(0.125)
    tol = {"rtol": 1e-6, "atol": 1e-6}
    if momentum is None:
        args = np.array([lr], dtype=np.float32)
        want = param - lr * grad
        ref.case(name, "sgd_step_float", {0: Bytes(args.tobytes()), 1: InOut(param, want, tol=tol), 2: grad},
                 threadgroup=tg, grid=n)
        return
    vel = r.standard_normal(n).astype(np.float32)
    args = np.array([lr, momentum], dtype=np.float32)
    v = np.float32(momentum) * vel + grad
    ref.case(name, "sgd_momentum_step_float", {0: Bytes(args.tobytes()), 1: InOut(param, param - lr * v, tol=tol),
                                              2: grad, 3: InOut(vel, v, tol=tol)}, threadgroup=tg, grid=n)


def bfloat_cross_case(name, n, tg):
    """cross of bfloat3 vectors of small integers (products and differences exact in bfloat); bfloat3 elements are
    8 bytes apart, the 4th half stays"""
    a = r.integers(-8, 9, (n, 3)).astype(np.float32)
    b = r.integers(-8, 9, (n, 3)).astype(np.float32)
    def padded(v):
        p = np.zeros((n, 4), np.float32)
        p[:, :3] = v
        return to_bf16_exact(p)
    want = padded(np.cross(a, b))
    init = r.integers(0, 65536, (n, 4)).astype(np.uint16)
    want[:, 3] = init[:, 3]
    ref.case(name, "bfloat_cross", {0: padded(a), 1: padded(b), 2: InOut(init, want)}, threadgroup=tg, grid=n)


def gamma_pair_case(name, n, tg):
    """Γ(x) and log|Γ(|x|)| (math.gamma, math.lgamma in float64) for x on both sides of the guards' 8, and negative
    x for log_gamma (which takes |x|); float32 within a few ulps of the series' error"""
    import math
    x = np.concatenate([r.uniform(0.5, 8, n // 2), r.uniform(8, 20, n - n // 2)]).astype(np.float32)
    x[::5] *= -1    # log_gamma of |x|; gamma of a negative x: the product below 8
    g = np.array([math.gamma(float(v)) for v in x])
    lg = np.array([math.lgamma(abs(float(v))) for v in x])
    ref.case(name, "gamma_pair", {0: x, 1: Out(g.astype(np.float32), tol={"rtol": 1e-4, "atol": 1e-6}),
                                  2: Out(lg.astype(np.float32), tol={"rtol": 1e-5, "atol": 1e-5})},
             threadgroup=tg, grid=n)


def int_math_bfloat_conditionals_case(name, n, tg):
    """log(10) and pow(2, k) of integers as float; bfloat ? float is float, bfloat ? half float, bfloat ? long a
    bfloat (the count rounded to bfloat before it is a float)"""
    from refcase import from_bf16, to_bf16
    xb = to_bf16(r.uniform(-4, 4, n).astype(np.float32))
    xb[::9] = 0x7FC0                                       # NaN: angle keeps it
    xb[1::9] = 0                                          # +0: angle 0, pick_half takes h
    x = from_bf16(xb)
    cnt = r.integers(-5, 3000, n).astype(np.int64)
    cnt[::4] = 1025                                       # bfloat(1025) = 1024; as a float it would stay 1025
    cnt[1::4] = r.integers(-5, 3, (n + 2) // 4)            # below 3: x
    cnt[::9] = 2000                                       # not NaN x (NaN is the poison's value)
    h = (r.uniform(-9, 9, n) + 0.123).astype(np.float16)   # not bfloat values: bfloat ? half rounded would differ
    angle = np.where(np.isnan(x), x, np.where(x < 0, np.float32(np.pi), np.float32(0)))
    pick = np.where(cnt < 3, x, from_bf16(to_bf16(cnt.astype(np.float32))))
    pick_h = np.where(x > 0, x, h.astype(np.float32))
    picked = np.stack([pick, pick_h], axis=1).reshape(-1).astype(np.float32)
    i = np.arange(n)
    logs = (np.float32(np.log(10.0)) * (i % 7) + 2.0 ** (i % 5) + np.log2(np.where(cnt > 0, cnt, 1))).astype(np.float32)
    ref.case(name, "int_math_bfloat_conditionals",
             {0: xb, 1: cnt, 2: h, 3: Out(to_bf16(angle), tol=EXACT), 4: Out(picked, tol=EXACT),
              5: Out(logs, tol={"rtol": 2e-6, "atol": 2e-6})}, threadgroup=tg, grid=n)


def cross_rows_case(name, entry, n, tg):
    """cross of int3 rows, and of bool3 rows (as ints, then nonzero is true: -1 is true); the first component's
    int value beside it"""
    if entry.endswith("bool"):
        a = r.integers(0, 2, (n, 3)).astype(np.int32)
        b = r.integers(0, 2, (n, 3)).astype(np.int32)
    else:
        a = r.integers(-1000, 1000, (n, 3)).astype(np.int32)
        b = r.integers(-1000, 1000, (n, 3)).astype(np.int32)
    c = np.cross(a, b).astype(np.int32)
    first = (a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1]).astype(np.int32)
    if entry.endswith("bool"):
        a, b, c = a.astype(np.uint8), b.astype(np.uint8), (c != 0).astype(np.uint8)
        assert (first == -1).any() and (first == 1).any()
    ref.case(name, entry, {0: a.reshape(-1), 1: b.reshape(-1), 2: Out(c.reshape(-1), tol=EXACT),
                           3: Out(first, tol=EXACT)}, threadgroup=tg, grid=n)


def bool_vectors_case(name, n, tg):
    """comparisons stored as bool vectors, bool3 elements of 4 bytes, any/all/select, conversions (true is 1)"""
    f = r.integers(-3, 4, (2 * n, 4)).astype(np.float32)         # small integers: many equal pairs
    h = r.integers(-3, 4, (2 * n, 4)).astype(np.float16)
    l = r.integers(-(1 << 40), 1 << 40, (2 * n, 2)).astype(np.int64)
    l[1::2][::3] = l[0::2][::3]                                  # equal pairs: not less
    m = r.integers(0, 2, (n, 3)).astype(np.uint8)
    m[::7] = 1                                                   # all(m) sometimes
    m3 = np.zeros((n, 4), np.uint8)
    m3[:, :3] = m
    m3[:, 3] = r.integers(0, 256, n)                             # the padding byte is not read
    a, b, ha, hb = f[0::2], f[1::2], h[0::2], h[1::2]
    lt, hge, lne, mb = a < b, ha >= hb, l[0::2] < l[1::2], m.astype(bool)
    i = np.arange(n)
    nz = np.stack([i % 3 != 0, np.ones(n, bool), np.ones(n, bool)], axis=1)
    s = m[:, 0].astype(np.int32) + m[:, 1] - m[:, 2]
    m4 = np.concatenate([m, np.zeros((n, 1), np.uint8)], axis=1).astype(np.int32)
    nz4 = np.concatenate([nz.astype(np.int32), (m.sum(1) + 4 * s)[:, None]], axis=1)
    ints = (lt * 10 + m4 - hge + nz4 + np.where(s & 1, -100, 100)[:, None]).astype(np.int32)
    extra = np.stack([lt.any(1), hge.all(1), mb.all(1) * 1000.0, nz[:, 0].astype(np.int32) - 1], axis=1)
    floats = (np.where(lt, a, b) + np.where(ha == hb, 100.0, 0.0) + extra).astype(np.float32)
    ref.case(name, "bool_vectors", {0: f, 1: h, 2: l, 3: m3,
                                    4: Out((lne | mb[:, :2]).astype(np.uint8), tol=EXACT),
                                    5: Out((lt != hge).astype(np.uint8), tol=EXACT),
                                    6: Out(ints, tol=EXACT), 7: Out(floats, tol=EXACT),
                                    8: Out(((lt == (a > 0)) & ((b < 1) | hge)).astype(np.uint8), tol=EXACT)},
             threadgroup=tg, grid=n)


def offsets_of_case(name, entry, shape, tg):
    """per thread, the dot product of its coordinates (first dimension fastest) with 3 strides per dimension, packed
    12 bytes apart; uint3 results wrap at 32 bits, ulong3 ones do not (strides near 2^31); the 4th component stays"""
    wide = entry.endswith("64")
    nd, n = len(shape), int(np.prod(shape))
    strides = r.integers(0, 1 << 31 if wide else 5000, (nd, 3)).astype(np.uint32)
    idx = np.arange(n)
    want = np.zeros((n, 3), np.uint64)
    for d in range(nd):
        want += (idx % shape[d]).astype(np.uint64)[:, None] * strides[d].astype(np.uint64)
        idx = idx // shape[d]
    dt = np.uint64 if wide else np.uint32
    init = r.integers(0, 1 << 31, (n, 4)).astype(dt)
    out = init.copy()
    out[:, :3] = want.astype(dt) if wide else (want % (1 << 32)).astype(dt)
    if wide:
        assert (want >= 1 << 32).any()
    ref.case(name, entry, {0: strides.reshape(-1), 1: InOut(init, out, tol=EXACT),
                           2: np.array(shape, np.uint32), 3: Scalar("uint", nd)}, threadgroup=tg, grid=n)


mul_case("pytorch_forms_mul_strided_float", "mul_strided_float", np.float32, 500, 3, 1, 64)
mul_case("pytorch_forms_mul_strided_int", "mul_strided_int", np.int32, 300, 2, 5, 32)
series_case("pytorch_forms_series", 100, 0, 32)
series_case("pytorch_forms_series_past_32_bits", 100, 1 << 32, 32)     # low bits 0..3: every value the default
coords_array_case("pytorch_forms_coords_array", (3, 5, 4), 32)
gather_case("pytorch_forms_gather_strided", (5, 3, 4), (12, 1, 3), 0, 32)   # a transposed view
gather_case("pytorch_forms_gather_strided_scaled", (7, 6), (2, 17), 1, 16)
logsumexp_case("pytorch_forms_logsumexp3", 200, 64)
frexp_case("pytorch_forms_frexp", 300, 64)
gather_checked_case("pytorch_forms_gather_checked_negative", 100, 37, 61, -1234, 32)
gather_checked_case("pytorch_forms_gather_checked_past_end", 70, 50, 3, 50, 16)
narrow_bits_case("pytorch_forms_narrow_bits", 256, 64)
sub_scaled_case("pytorch_forms_sub_scaled_split_name", "sub_scaled_float", np.float32, 301, 3, 64)
sub_scaled_case("pytorch_forms_sub_scaled_split_global", "sub_scaled_int", np.int32, 77, -2, 32)
vector_masks_case("pytorch_forms_vector_masks", 200, 64)
half_roots_case("pytorch_forms_half_roots", 300, 64)
accumulate_case("pytorch_forms_accumulate_at_offs_bfloat", "accumulate_at_offs_bfloat", 300, 5, 3, 64)
accumulate_case("pytorch_forms_accumulate_at_offs_half", "accumulate_at_offs_half", 129, 7, 2, 32)
remainder_case("pytorch_forms_remainder_at_offs", 200, -7, 64)
sgd_case("pytorch_forms_sgd_step_overload", 250, None, 64)
sgd_case("pytorch_forms_sgd_momentum_step_overload", 250, 0.75, 64)
bfloat_cross_case("pytorch_forms_bfloat_cross", 150, 32)
gamma_pair_case("pytorch_forms_gamma_pair", 200, 64)
int_math_bfloat_conditionals_case("pytorch_forms_int_math_bfloat_conditionals", 150, 32)
cross_rows_case("pytorch_forms_cross_rows_int", "cross_rows_int", 100, 32)
cross_rows_case("pytorch_forms_cross_rows_bool", "cross_rows_bool", 120, 32)
bool_vectors_case("pytorch_forms_bool_vectors", 200, 64)
offsets_of_case("pytorch_forms_offsets_of_32", "offsets_of_32", (4, 5, 6), 32)
offsets_of_case("pytorch_forms_offsets_of_64", "offsets_of_64", (3, 7, 2, 5), 64)

if __name__ == "__main__":
    raise SystemExit(ref.main())
