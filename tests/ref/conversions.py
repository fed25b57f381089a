#!/usr/bin/python3
"""Reference for samples/conversions.metal: Metal's conversions (round to nearest even into floating point, toward
zero into integers, integers modulo 2^n), computed with NumPy's casts, which round and wrap the same way."""
import numpy as np
from refcase import Out, Reference, from_bf16, rng, to_bf16

ref = Reference("conversions.metal")
r = rng(83)
EXACT = {"rtol": 0, "atol": 0}


def half_ties(n):
    """Floats exactly halfway between two neighbouring normal halves: round to the even one."""
    h = r.uniform(-60000, 60000, n).astype(np.float16)
    h[np.abs(h.astype(np.float32)) < 6.2e-5] = np.float16(1.0)
    up = np.nextafter(h, np.float16(np.inf) * np.sign(h)).astype(np.float32)
    return (h.astype(np.float32) + (up - h.astype(np.float32)) / np.float32(2)).astype(np.float32)


def from_float(name, n, tg):
    f = np.concatenate([
        np.array([0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.99999994, -0.99999994, 65504.0, 65519.0, 65520.0,
                  -65520.0, 1e9, -1e9, 3e9, -3e9, 2147483520.0, -2147483648.0, 4294967040.0, 5e9, 32767.9,
                  -32768.9, 127.9, -128.9, 1.0000001, 0.0000001, -1e-30, np.inf, -np.inf], dtype=np.float32),
        half_ties(200),
        r.uniform(-70000, 70000, n - 231).astype(np.float32)])
    assert f.size == n
    iv = np.clip(f, -2147483648.0, 2147483520.0).astype(np.int32)
    u = np.clip(np.abs(f), 0, 4294967040.0).astype(np.uint32)
    s = np.clip(f, -32768, 32767).astype(np.int16)
    c = np.clip(f, -128, 127).astype(np.int8)
    with np.errstate(over="ignore"):
        h = f.astype(np.float16)
        hsat = np.clip((f * np.float32(0.001)).astype(np.float16), 0, 1).astype(np.float16)
    # half: 65520 and beyond round to infinity (nan_ok lets the expected infinities through the check)
    ref.case(name, "from_float", {0: f, 1: Out(h, tol=EXACT, nan_ok=True), 2: Out(iv), 3: Out(u), 4: Out(s), 5: Out(c),
                                  6: Out(np.clip(f, 0, 1), tol=EXACT), 7: Out(hsat, tol=EXACT)},
             threadgroup=tg, grid=n)


def from_int(name, n, tg):
    iv = r.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    iv[:8] = [2**24 + 1, 2**24 + 3, -(2**24 + 1), 2**31 - 1, -2**31, 2049, 2051, -2051]   # float ties, half ties
    u = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    u[:3] = [2**32 - 1, 2**24 + 1, 2**25 + 2]
    l = r.integers(-2**63, 2**63 - 1, n, dtype=np.int64)
    l[:4] = [2**40 + 2**16, 2**40 + 2**16 * 3, -(2**53 + 1), 2**63 - 1]                   # ties at 2^40
    wide = iv.astype(np.int64) * (u >> 8).astype(np.int64) + iv.astype(np.int8).astype(np.int64)
    rem = np.fmod(iv, 65504).astype(np.int32)                                               # C's %
    ref.case(name, "from_int", {0: iv, 1: u, 2: l, 3: Out(iv.astype(np.float32), tol=EXACT),
                                4: Out(u.astype(np.float32), tol=EXACT), 5: Out(l.astype(np.float32), tol=EXACT),
                                6: Out(rem.astype(np.float16), tol=EXACT), 7: Out(iv.astype(np.int8)),
                                8: Out(iv.astype(np.uint16)), 9: Out(l.astype(np.int32)), 10: Out(u.astype(np.uint8)),
                                11: Out(wide)},
             threadgroup=tg, grid=n)


def from_half(name, n, tg):
    bits = r.integers(0, 0x7C00, n, dtype=np.uint16)            # finite halves, denormals included
    bits[r.integers(0, 2, n).astype(bool)] |= 0x8000
    bits[:4] = [0x0001, 0x83FF, 0x7BFF, 0x8000]
    h = bits.view(np.float16)
    f = h.astype(np.float32)
    ref.case(name, "from_half", {0: h, 1: Out(f, tol=EXACT), 2: Out(f.astype(np.int32)), 3: Out(to_bf16(f))},
             threadgroup=tg, grid=n)


from_float("from_float_1000", 1000, 64)
from_int("from_int_700", 700, 64)
from_half("from_half_800", 800, 32)

if __name__ == "__main__":
    raise SystemExit(ref.main())
