#!/usr/bin/python3
"""Reference for samples/c10_ops.metal: macro-registered functor kernels from samples/include/c10_like.h."""
import numpy as np
from refcase import Out, Reference, Scalar, from_bf16, near_bf16_tie, rng, to_bf16

ref = Reference("c10_ops.metal")
r = rng(51)
n = 1000
data = {
    "float": r.uniform(-4, 4, n).astype(np.float32),
    "half": r.uniform(-4, 4, n).astype(np.float16),
    "int": r.integers(-1000, 1000, n).astype(np.int32),
}
other = {
    "float": r.uniform(-4, 4, n).astype(np.float32),
    "half": r.uniform(-4, 4, n).astype(np.float16),
    "int": r.integers(-50, 50, n).astype(np.int32),
}
other["int"][other["int"] == 0] = 7
other["float"][np.abs(other["float"]) < 0.1] = 0.5


def trunc_half(x):
    return x.astype(np.float16)


for t in ("float", "half", "int"):
    x = data[t]
    ref.case("c10_neg_%s" % t, "neg_%s" % t, {0: x, 1: Out(-x)}, threadgroup=64, grid=n)
    ref.case("c10_square_%s" % t, "square_%s" % t, {0: x, 1: Out(x * x)}, threadgroup=64, grid=n)
    ref.case("c10_add_%s" % t, "add_%s" % t, {0: x, 1: other[t], 2: Out(x + other[t])}, threadgroup=64, grid=n)
for t in ("float", "int"):
    x, y = data[t], other[t]
    ref.case("c10_maximum_%s" % t, "maximum_%s" % t, {0: x, 1: y, 2: Out(np.maximum(x, y))}, threadgroup=32, grid=n)
ref.case("c10_div_float", "div_float", {0: data["float"], 1: other["float"],
                                        2: Out(data["float"] / other["float"])}, threadgroup=32, grid=n)
ref.case("c10_div_int", "div_int", {0: data["int"], 1: other["int"],
                                    2: Out(np.floor_divide(data["int"], other["int"]))}, threadgroup=32, grid=n)
alpha = 0.125
xf = data["float"]
ref.case("c10_leaky_relu_float", "leaky_relu_float",
         {0: xf, 1: Out(np.where(xf > 0, xf, np.float32(alpha) * xf)), 2: Scalar("float", alpha)}, threadgroup=50, grid=n)
xh = data["half"]
mh = xh.astype(np.float32)
ref.case("c10_leaky_relu_half", "leaky_relu_half",
         {0: xh, 1: Out(np.where(mh > 0, mh, np.float32(alpha) * mh).astype(np.float16)), 2: Scalar("float", alpha)},
         threadgroup=50, grid=n)

# bfloat (its bits, uint16): each functor computes in float and rounds once when it makes its bfloat result
xb = to_bf16(r.uniform(-4, 4, n))
yb = to_bf16(r.uniform(-4, 4, n))
yb[np.abs(from_bf16(yb)) < 0.1] = to_bf16([0.5])[0]
yb[near_bf16_tie(from_bf16(xb).astype(np.float64) / from_bf16(yb))] = to_bf16([1.0])[0]   # x / 1 is exact
fx, fy = from_bf16(xb), from_bf16(yb)
ref.case("c10_neg_bfloat", "neg_bfloat", {0: xb, 1: Out(to_bf16(-fx))}, threadgroup=64, grid=n)
ref.case("c10_square_bfloat", "square_bfloat", {0: xb, 1: Out(to_bf16(fx * fx))}, threadgroup=64, grid=n)
ref.case("c10_add_bfloat", "add_bfloat", {0: xb, 1: yb, 2: Out(to_bf16(fx + fy))}, threadgroup=64, grid=n)
ref.case("c10_maximum_bfloat", "maximum_bfloat", {0: xb, 1: yb, 2: Out(to_bf16(np.maximum(fx, fy)))},
         threadgroup=32, grid=n)
# float division may be off by an ulp or two of float on a GPU (Vulkan's precision): quotients near a bfloat
# rounding midpoint were avoided above, so the bits compare exactly
ref.case("c10_div_bfloat", "div_bfloat", {0: xb, 1: yb, 2: Out(to_bf16(fx / fy))}, threadgroup=32, grid=n)
ref.case("c10_leaky_relu_bfloat", "leaky_relu_bfloat",
         {0: xb, 1: Out(to_bf16(np.where(fx > 0, fx, np.float32(alpha) * fx))), 2: Scalar("float", alpha)},
         threadgroup=50, grid=n)

if __name__ == "__main__":
    raise SystemExit(ref.main())
