#!/usr/bin/python3
"""Reference for samples/front_forms.metal: a bfloat assigned from a struct through the struct's own conversion
(bool, int) and from numbers, rounded once to nearest even; a `thread` method and conversion called on a function's
return value and on integral constants combined by a user operator&&; fragments whose element type function
templates deduce through an alias template of vec (float, half)."""
import numpy as np
from refcase import Out, Reference, from_bf16, rng, to_bf16

ref = Reference("front_forms.metal")
r = rng(1515)

# masked_scale: scale = 2 where i % 5 == 4, else the mask's value (NoMask: true -> 1; Weight: the int, as T)
n = 320
idx = np.arange(n)
keep = idx % 5 == 4
x16 = to_bf16(r.uniform(-20, 20, n))
extra_bf = to_bf16(np.array([3, 260, 1.5, np.float32(0.1)], np.float32))  # 259 -> 260: a tie, to even

scale = np.where(keep, 2.0, 1.0).astype(np.float32)
ref.case("front_forms_masked_scale_nomask_bf16", "masked_scale_nomask_bf16",
         {0: x16, 1: np.ones(n, np.uint8), 2: Out(to_bf16(from_bf16(x16) * scale)), 3: Out(extra_bf)},
         threadgroup=64, grid=n)

w = r.integers(-300, 301, n).astype(np.int32)
w[:8] = [259, -259, 257, 255, 0, 1, -1, 300]
scale = np.where(keep, np.float32(2), from_bf16(to_bf16(w.astype(np.float32))))   # int -> bfloat, rounded
ref.case("front_forms_masked_scale_weight_bf16", "masked_scale_weight_bf16",
         {0: x16, 1: w, 2: Out(to_bf16(from_bf16(x16) * scale)), 3: Out(extra_bf)},
         threadgroup=64, grid=n)

xh = r.uniform(-20, 20, n).astype(np.float16)
scale = np.where(keep, np.float16(2), w.astype(np.float16))
prod = (xh.astype(np.float32) * scale.astype(np.float32)).astype(np.float16)          # one rounding to half
extra_h = np.array([3, 259, 1.5, np.float32(0.1)], np.float32).astype(np.float16)
ref.case("front_forms_masked_scale_weight_f16", "masked_scale_weight_f16",
         {0: xh, 1: w, 2: Out(prod, tol={"rtol": 0, "atol": 0}), 3: Out(extra_h, tol={"rtol": 0, "atol": 0})},
         threadgroup=64, grid=n)

# temporaries: 2 * 3x + (3x + 0.5) + 100 or 200 + 1000 when both constants are true
m = 200
xf = r.uniform(-10, 10, m).astype(np.float32)
t3 = xf * np.float32(3)
for name, both in (("tt", True), ("tf", False)):
    exp = np.float32(2) * t3 + np.float32(100 if both else 200) + (t3 + np.float32(0.5)) + np.float32(1000 if both else 0)
    ref.case("front_forms_temporaries_" + name, "temporaries_" + name, {0: xf, 1: Out(exp.astype(np.float32))},
             threadgroup=32, grid=m)

# frag_copy: rows of 8: out[0:4] = 3 * in[4:8] + in[0:4], out[4:8] = in[4:8]
rows = 100
for name, dt in (("f32", np.float32), ("f16", np.float16)):
    a = r.uniform(-4, 4, (rows, 8)).astype(dt)
    exp = a.copy()
    exp[:, :4] = (dt(3) * a[:, 4:] + a[:, :4]).astype(dt)
    tol = None if dt == np.float32 else {"rtol": 2e-3, "atol": 2e-3}
    ref.case("front_forms_frag_copy_" + name, "frag_copy_" + name, {0: a.ravel(), 1: Out(exp.ravel(), tol=tol)},
             threadgroup=32, grid=rows)

# pair_sum: (a + b) rounded to bfloat, then + 0.5 rounded (float: in float)
k = 300
pb = to_bf16(r.uniform(-50, 50, 2 * k))
ab = from_bf16(to_bf16(from_bf16(pb[0::2]) + from_bf16(pb[1::2])))
ref.case("front_forms_pair_sum_bf16", "pair_sum_bf16", {0: pb, 1: Out(to_bf16(ab + np.float32(0.5)))},
         threadgroup=64, grid=k)
pf = r.uniform(-50, 50, 2 * k).astype(np.float32)
ref.case("front_forms_pair_sum_f32", "pair_sum_f32", {0: pf, 1: Out(pf[0::2] + pf[1::2] + np.float32(0.5))},
         threadgroup=64, grid=k)

if __name__ == "__main__":
    raise SystemExit(ref.main())
