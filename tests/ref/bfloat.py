#!/usr/bin/python3
"""Reference for samples/bfloat.metal: bfloat stored as 16 bits, arithmetic through float."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng

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

if __name__ == "__main__":
    raise SystemExit(ref.main())
