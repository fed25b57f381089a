"""Inputs and the reference for axpy.comp: x[i] = i, y[i] = 1000 - i, a = 2.5, y' = a * x + y (n = 1000)."""
import struct
import sys
from npy_min import save

out = sys.argv[1] if len(sys.argv) > 1 else "."
n = 1000
x = [float(i) for i in range(n)]
y = [float(n - i) for i in range(n)]
f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
save(out + "/x.npy", "<f4", (n,), x)
save(out + "/y.npy", "<f4", (n,), y)
save(out + "/y_ref.npy", "<f4", (n,), [f32(f32(2.5 * x[i]) + y[i]) for i in range(n)])
save(out + "/y_int.npy", "<i4", (n,), list(range(n)))
