#!/usr/bin/python3
"""Reference for samples/bfloat.metal: bfloat stored as 16 bits, arithmetic through float."""
import numpy as np
from refcase import Bytes, InOut, Out, Reference, Scalar, near_bf16_tie, rng

ref = Reference("bfloat.metal")
r = rng(59)


def to_bf16(f):
    """float32 -> bfloat16 bits, round to nearest even (NaN -> quiet NaN)."""
    u = np.asarray(f, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(f, dtype=np.float32))
    b[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return b


def from_bf16(b):
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def axpy(name, n, tg, a):
    x = to_bf16(r.uniform(-10, 10, n).astype(np.float32))
    y = to_bf16(r.uniform(-10, 10, n).astype(np.float32))
    expected = to_bf16(np.float32(a) * from_bf16(x) + from_bf16(y))   # one rounding, at the store
    ref.case(name, "bf_axpy", {0: x, 1: InOut(y, expected), 2: Scalar("float", a)}, threadgroup=tg, grid=n)


def convert(name, n, tg):
    f = r.uniform(-1000, 1000, n).astype(np.float32)
    # ties: low 16 bits exactly 0x8000 round to even
    u = f.view(np.uint32)
    u[:64] = (u[:64] & 0xFFFF0000) | 0x8000
    f[64:69] = [0.0, -0.0, 1.0e-40, 6.0e4, -1.0e-3]      # zeros keep their sign; a denormal; near half max
    b = to_bf16(f)
    back = (from_bf16(b) * np.float32(2)).astype(np.float32)
    h = from_bf16(b).astype(np.float16)
    # back to float exactly, except that a denormal may become 0: Metal's default fast math flushes float denormals,
    # and so does NVIDIA's compiler (measured on an H200); 1.2e-38 is below every normal float's spacing here
    ref.case(name, "bf_convert", {0: f, 1: Out(b), 2: Out(back, tol={"rtol": 0, "atol": 1.2e-38}),
                                  3: Out(h, tol={"rtol": 0, "atol": 0}), 4: Out(b.copy())},
             threadgroup=tg, grid=n)


axpy("bf_axpy_1000", 1000, 64, 1.75)
axpy("bf_axpy_4096", 4096, 128, -0.3125)
convert("bf_convert_512", 512, 64)


def update(name, n, tg):
    """bf_update: every compound assignment and ++/-- rounds to bfloat once, after the float operation."""
    y = to_bf16(r.uniform(-100, 100, n))
    x = r.uniform(-50, 50, n).astype(np.float32)
    s = to_bf16(r.uniform(-3, 3, n))
    f = from_bf16
    a = to_bf16(f(y) + x)
    a = to_bf16(f(a) * f(s))
    a = to_bf16(f(a) - np.float32(0.375))
    a = to_bf16(f(a) + np.float32(1))
    a = to_bf16(f(a) / np.float32(4))
    a = to_bf16(f(a) - np.float32(1))
    ref.case(name, "bf_update", {0: InOut(y, to_bf16(f(y) + f(a))), 1: x, 2: s}, threadgroup=tg, grid=n)


def struct_tg(name, groups, tg):
    """bf_struct_tg: a struct of two bfloats and a float; products through a threadgroup bfloat array."""
    n = groups * tg
    rec = np.zeros(n, dtype=[("value", "<u2"), ("weight", "<u2"), ("bias", "<f4")])
    rec["value"] = to_bf16(r.uniform(-8, 8, n))
    rec["weight"] = to_bf16(r.uniform(-8, 8, n))
    rec["bias"] = r.uniform(-1, 1, n).astype(np.float32)
    tile = to_bf16(from_bf16(rec["value"]) * from_bf16(rec["weight"])).reshape(groups, tg)
    left = np.roll(tile, 1, axis=1)
    out = to_bf16((from_bf16(left) + from_bf16(tile)).ravel() + rec["bias"])
    ref.case(name, "bf_struct_tg", {0: Bytes(rec.tobytes()), 1: Out(out)}, threadgroup=tg, grid=n)


def row_norm(rows, cols):
    """row_norm<T> for float, half and bfloat: sqrt(mean(x*x)) of each row, accumulated in float."""
    base = r.uniform(-4, 4, (rows, cols)).astype(np.float32)
    # rows whose bfloat norm lies near a rounding midpoint (sqrt and the sum's order are a few float ulps apart on a
    # GPU) become rows of ones (norm 1, exact), so that the bfloat bits compare exactly
    v64 = from_bf16(to_bf16(base)).astype(np.float64)
    base[near_bf16_tie(np.sqrt((v64 * v64).mean(axis=1)), 0.01)] = 1.0
    inputs = {"float": base, "half": base.astype(np.float16), "bfloat": to_bf16(base)}
    for t, x in inputs.items():
        v = from_bf16(x) if t == "bfloat" else x.astype(np.float32)
        acc = np.zeros(rows, dtype=np.float32)
        for c in range(cols):
            acc = (acc + v[:, c] * v[:, c]).astype(np.float32)
        norm = np.sqrt(acc / np.float32(cols)).astype(np.float32)
        if t == "float":
            out = Out(norm)
        elif t == "half":
            out = Out(norm.astype(np.float16), tol={"rtol": 1e-3, "atol": 0})
        else:
            out = Out(to_bf16(norm))
        ref.case("row_norm_%s" % t, "row_norm_%s" % t, {0: x.ravel(), 1: out, 2: Scalar("uint", cols)},
                 threadgroup=32, grid=rows)


def bf4_elementwise(name, groups, a):
    """bf4_elementwise: bfloat4 loads, compound assignment, components, a Frame struct (bfloat3 dir at 0, bfloat4
    color at 8, float gain at 16: 24 bytes, padding untouched) and a threadgroup bfloat4 array."""
    n = groups * 32
    f = from_bf16
    x = to_bf16(r.uniform(-20, 20, (n, 4)))
    y = to_bf16(r.uniform(-20, 20, (n, 4)))
    y_out = to_bf16(f(to_bf16(f(y) * np.float32(a))) + f(x))
    raw = r.integers(0, 65536, (n, 12), dtype=np.uint64).astype(np.uint16)   # noise in the padding
    raw[:, 0:3] = to_bf16(r.uniform(-4, 4, (n, 3)))
    raw[:, 4:8] = to_bf16(r.uniform(-4, 4, (n, 4)))
    raw[:, 8:10] = r.uniform(0.5, 2, n).astype(np.float32).view(np.uint16).reshape(n, 2)
    gain = raw[:, 8:10].copy().view(np.float32).ravel()
    tile = np.stack([x[:, 3], x[:, 2], x[:, 1], np.full(n, 0x3F80, np.uint16)], axis=1)
    d = np.concatenate([f(raw[:, 0:3]), gain[:, None]], axis=1)
    out = raw.copy()
    out[:, 4:8] = to_bf16(d * f(tile))
    out[:, 0:3] = to_bf16(f(raw[:, 0:3]) + np.float32(1))
    sums = f(x).sum(axis=1, dtype=np.float32) + f(out[:, 7])
    ref.case(name, "bf4_elementwise", {0: x.ravel(), 1: InOut(y.ravel(), y_out.ravel()), 2: InOut(raw, out),
                                       3: Out(sums), 4: Scalar("float", a)}, threadgroup=32, grid=n)


def arith(name, n, tg):
    """bf_arith: x * y + x rounds the product to bfloat, then the sum; x + k makes k a bfloat first."""
    f = from_bf16
    x = to_bf16(r.uniform(-300, 300, n))
    y = to_bf16(r.uniform(-300, 300, n))
    y[:50] = x[:50]                                        # some equal pairs
    k = r.integers(-100000, 100000, n).astype(np.int32)
    fx, fy = f(x), f(y)
    two = to_bf16(f(to_bf16(fx * fy)) + fx)
    mixed = (fx * np.float32(1.5) + fy).astype(np.float32)
    fk = f(to_bf16(k.astype(np.float32)))                 # |k| < 2^24: exact in float, then rounded to bfloat
    with_int = to_bf16(fx + fk)
    flags = ((fx < fy).astype(np.uint32) | (fx == fy).astype(np.uint32) << 1 | (fx < fk).astype(np.uint32) << 2 |
             (-fx > fy).astype(np.uint32) << 3)
    ref.case(name, "bf_arith", {0: x, 1: y, 2: k, 3: Out(two), 4: Out(mixed), 5: Out(with_int), 6: Out(flags)},
             threadgroup=tg, grid=n)


def limits(name, rows, tg):
    """bf_limits: program-scope bfloat constants (MLX's Limits<bfloat16_t>) and a row maximum started at -inf."""
    x = to_bf16(r.uniform(-1000, 1000, (rows, 8)).astype(np.float32))
    x[3, :] = 0xFF80                                      # a row of -inf stays -inf
    row_max = to_bf16(from_bf16(x).max(axis=1))
    consts = np.array([0x7F80, 0xFF80, 0x7F7F, 0xFF7F, 0, 0],
                      dtype=np.uint16)
    consts[4:] = to_bf16(np.array([0.33333334, 1.00390625], dtype=np.float32))   # the tie rounds to even: 1.0
    assert consts[4] == 0x3EAB and consts[5] == 0x3F80
    ref.case(name, "bf_limits", {0: x.ravel(), 1: Out(row_max), 2: Out(consts)}, threadgroup=tg, grid=rows)


update("bf_update_1000", 1000, 64)
arith("bf_arith_900", 900, 64)
bf4_elementwise("bf4_elementwise_10x32", 10, -1.375)
struct_tg("bf_struct_tg_8x64", 8, 64)
row_norm(300, 37)
limits("bf_limits_100", 100, 32)

if __name__ == "__main__":
    raise SystemExit(ref.main())
