#!/usr/bin/python3
"""Reference for samples/mlx_like.metal: MLX-style templated unary, binary and copy kernels, contiguous and strided."""
import numpy as np
from refcase import Bytes, Out, Reference, Scalar, from_bf16, near_bf16_tie, rng, to_bf16

ref = Reference("mlx_like.metal")
r = rng(52)
f32, f16 = np.float32, np.float16
DT = {"float": f32, "half": f16, "int": np.int32, "uint": np.uint32}


def layout(shape, strides):
    """struct Layout { int shape[4]; int strides[4]; } with Metal's layout: 32 bytes."""
    s = list(shape) + [1] * (4 - len(shape))
    t = list(strides) + [0] * (4 - len(strides))
    return Bytes(np.array(s + t, np.int32).tobytes())


def strided(base, shape, strides):
    """The view of BASE (1-d) with SHAPE and STRIDES in elements, as the kernel reads it."""
    item = base.itemsize
    return np.lib.stride_tricks.as_strided(base, shape=shape, strides=[s * item for s in strides])


def sample(t, n, lo=-3, hi=3):
    if t in ("int", "uint"):
        lo = 0 if t == "uint" else -1000
        return r.integers(lo, 1000, n).astype(DT[t])
    return r.uniform(lo, hi, n).astype(DT[t])


n = 777
# half results of transcendental functions: lavapipe's float16 exp is within 3 half ulps (2^-10 relative each)
HALF_TOL = dict(rtol=4e-3, atol=1e-3)
unary = {
    "abs": lambda x: np.abs(x),
    "exp": lambda x: np.exp(x.astype(f32)).astype(x.dtype),
    "sigmoid": lambda x: (f32(1) / (f32(1) + np.exp(-x.astype(f32)))).astype(x.dtype),
    "fastexp": lambda x: np.exp(x),
}
for name, t in [("abs", "float"), ("abs", "int"), ("abs", "uint"), ("exp", "float"),
                ("exp", "half"), ("sigmoid", "float"), ("fastexp", "float")]:
    x = sample(t, n)
    tol = HALF_TOL if t == "half" and name != "abs" else None
    ref.case("mlx_v_%s_%s" % (name, t), "v_%s_%s" % (name, t), {0: x, 1: Out(unary[name](x), tol)}, threadgroup=64,
             grid=n)
    # strided: a transposed 23x31 view of a 31x23 array
    base = sample(t, 31 * 23)
    view = strided(base, (23, 31), (1, 23))
    ref.case("mlx_g2_%s_%s" % (name, t), "g2_%s_%s" % (name, t),
             {0: base, 1: Out(unary[name](view).reshape(-1), tol), 2: layout((23, 31), (1, 23))},
             threadgroup=32, grid=23 * 31)

binary = {"add": np.add, "minimum": np.minimum, "multiply": np.multiply}
for name, t in [("add", "float"), ("add", "half"), ("add", "int"), ("minimum", "float"), ("multiply", "int")]:
    a, b = sample(t, n), sample(t, n)
    if name == "multiply":
        a, b = (a % 1000).astype(DT[t]), (b % 1000).astype(DT[t])
    op = binary[name]
    ref.case("mlx_vv_%s_%s" % (name, t), "vv_%s_%s" % (name, t), {0: a, 1: b, 2: Out(op(a, b))}, threadgroup=64, grid=n)
    if (name, t) in (("add", "float"), ("multiply", "int")):  # the scalar-vector variants
        ref.case("mlx_sv_%s_%s" % (name, t), "sv_%s_%s" % (name, t), {0: a[:1], 1: b, 2: Out(op(a[0], b).astype(DT[t]))},
                 threadgroup=64, grid=n)
        ref.case("mlx_vs_%s_%s" % (name, t), "vs_%s_%s" % (name, t), {0: a, 1: b[:1], 2: Out(op(a, b[0]).astype(DT[t]))},
                 threadgroup=64, grid=n)
    # 3-d: a broadcast along the middle axis (stride 0) and a step-2 view
    shape = (5, 7, 9)
    abase = sample(t, 5 * 9)
    bbase = sample(t, 5 * 7 * 9 * 2)
    if name == "multiply":
        abase, bbase = (abase % 1000).astype(DT[t]), (bbase % 1000).astype(DT[t])
    av = strided(abase, shape, (9, 0, 1))
    bv = strided(bbase, shape, (126, 18, 2))
    ref.case("mlx_g3_%s_%s" % (name, t), "g3_%s_%s" % (name, t),
             {0: abase, 1: bbase, 2: Out(op(av, bv).reshape(-1)), 3: layout(shape, (9, 0, 1)),
              4: layout(shape, (126, 18, 2))}, threadgroup=(16, 1, 1), grid=5 * 7 * 9)

for t, u in [("float", "float"), ("half", "float"), ("int", "float"), ("float", "half")]:
    x = sample(t, n)
    ref.case("mlx_copy_v_%s_%s" % (t, u), "copy_v_%s_%s" % (t, u), {0: x, 1: Out(x.astype(DT[u]))}, threadgroup=64, grid=n)
    m = n // 3
    if (t, u) == ("float", "float"):  # the 1-d strided copy through the non-template overload
        ref.case("mlx_copy_g1_%s_%s" % (t, u), "copy_g1_%s_%s" % (t, u),
                 {0: x, 1: Out(x[::3][:m].astype(DT[u])), 2: Scalar("int", 3)}, threadgroup=64, grid=m)
    base = sample(t, 40 * 30)
    view = strided(base, (20, 15), (60, 2))
    ref.case("mlx_copy_g2_%s_%s" % (t, u), "copy_g2_%s_%s" % (t, u),
             {0: base, 1: Out(view.astype(DT[u]).reshape(-1)), 2: layout((20, 15), (60, 2))}, threadgroup=(64, 1, 1),
             grid=300)

# bfloat16_t (bfloat): bits in uint16 arrays; functors compute in float, rounded once where a bfloat is made
BF = "bfloat16_t"


def bf_inputs(count, name):
    """bfloat inputs; for sigmoid none whose result lies near a bfloat rounding midpoint (exp and the division are
    a few float ulps off on a GPU), so that the bits compare exactly."""
    x = to_bf16(r.uniform(-3, 3, count))
    if name == "sigmoid":
        x[near_bf16_tie(1.0 / (1.0 + np.exp(-from_bf16(x).astype(np.float64))), 0.01)] = 0   # sigmoid(0) = 0.5
    return x


for name in ("abs", "sigmoid"):
    x = bf_inputs(n, name)
    fx = from_bf16(x)
    y = to_bf16(np.abs(fx)) if name == "abs" else to_bf16(f32(1) / (f32(1) + np.exp(-fx)))
    ref.case("mlx_v_%s_%s" % (name, BF), "v_%s_%s" % (name, BF), {0: x, 1: Out(y)}, threadgroup=64, grid=n)
    base = bf_inputs(31 * 23, name)
    view = from_bf16(strided(base, (23, 31), (1, 23)).reshape(-1))
    yv = to_bf16(np.abs(view)) if name == "abs" else to_bf16(f32(1) / (f32(1) + np.exp(-view)))
    ref.case("mlx_g2_%s_%s" % (name, BF), "g2_%s_%s" % (name, BF),
             {0: base, 1: Out(yv), 2: layout((23, 31), (1, 23))}, threadgroup=32, grid=23 * 31)
for name, op in (("add", np.add), ("minimum", np.minimum)):
    a, b = to_bf16(r.uniform(-3, 3, n)), to_bf16(r.uniform(-3, 3, n))
    ref.case("mlx_vv_%s_%s" % (name, BF), "vv_%s_%s" % (name, BF),
             {0: a, 1: b, 2: Out(to_bf16(op(from_bf16(a), from_bf16(b))))}, threadgroup=64, grid=n)
    shape = (5, 7, 9)
    abase, bbase = to_bf16(r.uniform(-3, 3, 5 * 9)), to_bf16(r.uniform(-3, 3, 5 * 7 * 9 * 2))
    av = from_bf16(strided(abase, shape, (9, 0, 1)).reshape(-1))
    bv = from_bf16(strided(bbase, shape, (126, 18, 2)).reshape(-1))
    ref.case("mlx_g3_%s_%s" % (name, BF), "g3_%s_%s" % (name, BF),
             {0: abase, 1: bbase, 2: Out(to_bf16(op(av, bv))), 3: layout(shape, (9, 0, 1)),
              4: layout(shape, (126, 18, 2))}, threadgroup=(16, 1, 1), grid=5 * 7 * 9)
xf = r.uniform(-1000, 1000, n).astype(f32)
ref.case("mlx_copy_v_float_%s" % BF, "copy_v_float_%s" % BF, {0: xf, 1: Out(to_bf16(xf))}, threadgroup=64, grid=n)
xb = to_bf16(r.uniform(-1000, 1000, n))
ref.case("mlx_copy_v_%s_float" % BF, "copy_v_%s_float" % BF, {0: xb, 1: Out(from_bf16(xb))}, threadgroup=64, grid=n)
base = to_bf16(r.uniform(-1000, 1000, 40 * 30))
ref.case("mlx_copy_g2_%s_float" % BF, "copy_g2_%s_float" % BF,
         {0: base, 1: Out(from_bf16(strided(base, (20, 15), (60, 2)).reshape(-1))), 2: layout((20, 15), (60, 2))},
         threadgroup=(64, 1, 1), grid=300)
basef = r.uniform(-1000, 1000, 40 * 30).astype(f32)
ref.case("mlx_copy_g2_float_%s" % BF, "copy_g2_float_%s" % BF,
         {0: basef, 1: Out(to_bf16(strided(basef, (20, 15), (60, 2)).reshape(-1))), 2: layout((20, 15), (60, 2))},
         threadgroup=(64, 1, 1), grid=300)

if __name__ == "__main__":
    raise SystemExit(ref.main())
