#!/usr/bin/python3
"""Reference for samples/cxx_features.metal: templates, overloads, default arguments, member functions,
operators on a user type, default member initializers, traits, a constant table and local lambdas, for float, half and int."""
import numpy as np
from refcase import Out, Reference, rng

ref = Reference("cxx_features.metal")
r = rng(54)
f32 = np.float32
n = 250
weights = np.array([0.5, 0.25, 0.125, 0.125], f32)

for t in ("float", "half", "int"):
    if t == "int":
        x = r.integers(-100, 100, 4 * n).astype(np.int32)
        v = x.reshape(n, 4)                                   # acc_t<int> = int
        dot = np.zeros(n, np.int32)                           # int(weights[k]) == 0
        mean = np.trunc(v.sum(axis=1) / 4).astype(np.int32)   # int division truncates
        extra = (v[:, 0] * 5).astype(f32)                     # scaled(int, 5)
        mag = np.abs(x[0::4]).astype(np.uint32)
    else:
        x = r.uniform(-4, 4, 4 * n).astype(np.float32 if t == "float" else np.float16)
        v = x.reshape(n, 4).astype(f32)                       # acc_t<half> = float
        dot = np.zeros(n, f32)
        for k in range(4):
            dot = dot + v[:, k] * weights[k]
        total = np.zeros(n, f32)
        for k in range(4):
            total = total + v[:, k]
        mean = total / f32(4)
        extra = v[:, 0] * f32(2)                              # scaled(float), default k = 2
        mag = np.abs(np.trunc(x[0::4].astype(f32))).astype(np.uint32)
    out = dot.astype(f32) + mean.astype(f32)
    out = out + extra
    out = out + f32(1)                                        # numeric_limits<T>::is_signed
    out = out + f32(21)                                       # Cursor<A>(10): offset 3, dim 10, index 2, step 6
    out = out + f32(0.25)                                     # shift(r), twice: calls == 2
    out = out + f32(0.25)
    out = out + f32(2)
    out = out + f32(2.25)                                     # twice_plus(1.0f)
    vf = v.astype(f32)
    re = vf[:, 0] * vf[:, 2] - vf[:, 1] * vf[:, 3] + vf[:, 0] + vf[:, 2]   # c = a * b + a; c += b
    im = vf[:, 0] * vf[:, 3] + vf[:, 1] * vf[:, 2] + vf[:, 1] + vf[:, 3]
    ref.case("cxx_features_%s" % t, "features_%s" % t,
             {0: x, 1: Out(out), 2: Out(mag), 3: Out(np.stack([re, im], axis=1))}, threadgroup=32, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
