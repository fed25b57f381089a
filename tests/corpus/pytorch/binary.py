#!/usr/bin/python3
"""PyTorch's binary kernels (kernels/BinaryKernel.metal with c10/metal/indexing.h's binary_* templates, launched by
MetalShaderLibrary::exec_binary_kernel in mps/OperationUtils.mm) against NumPy.

bind_iter_tensors binds the output at 0, input at 1, other at 2. exec_binary_kernel picks the kernel:
- `{op}_dense_scalar[_lhs]_{out}_{in}` when one operand has one element and the other and the output are contiguous
  (the one-element tensor bound as is: `device T* scalar`);
- `{op}_dense_broadcast[_rhs]_{out}_{in}` when one operand is dense-broadcastable into the output (its size repeats
  along the outer dimensions): broadcast_numel (int64) at 3; `_rhs` names the kernel whose broadcast operand is the
  input (buffer 1);
- `{op}_dense_{out}_{in}` when the iterator is contiguous, `{op}_dense_cast_{out}` when the inputs' dtypes differ
  (then the element sizes and c10::ScalarType codes, std::array<int, 4>, at 3);
- else `{op}_strided_{out}_{in}`: the iterator's shape, the output's, input's and other's byte strides (int64 arrays,
  fastest dimension first, dimensions coalesced) at 3-6 and {ndim, types...} (std::array<int, 4>) at 7.
Ops with an alpha other than 1 (add, sub) are `add_alpha` / `sub_alpha` with the alpha (the common dtype) at 3 and
everything after it one index later (dense_broadcast: alpha at 4, after broadcast_numel). One thread per element
(mtl_dispatch1DJob).
"""
import numpy as np

from torchcase import (MTYPE, SCALAR_TYPE, Out, Scalar, as_dtype, dispatch_1d, itemsize, longs, out, reference, rng,
                       tol, uints, values)

ref = reference("BinaryKernel.metal")
r = rng(1402)

SCALAR_NAME = {np.float32: "float", np.float16: "half"}


def rounded(v, dt):
    """float64 values rounded to dtype DT and back (a kernel's arithmetic in T)."""
    return values(as_dtype(v, dt), dt)


def compute(op, a, b, dt, alpha=None):
    """The functors' math on values a, b held in DT; half arithmetic rounds after each operation (add_alpha:
    a + alpha * b in T), opmath ops (mul, div_true) round once."""
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "add_alpha":
        return a + rounded(alpha * b, dt)
    if op == "sub_alpha":
        return a - rounded(alpha * b, dt)
    if op == "mul":
        return a * b
    if op == "div_true":
        return a / b
    if op == "maximum":
        return np.where(np.isnan(a) | np.isnan(b), np.nan, np.maximum(a, b))
    raise ValueError(op)


def operand(dt, shape, lo=-4, hi=4):
    if dt in (np.float32, np.float16, "bf16"):
        return as_dtype(r.uniform(lo, hi, shape), dt)
    return r.integers(lo, hi + 1, shape).astype(dt)


def alpha_args(op, dt, alpha):
    if alpha is None:
        return op, "", []
    return op + "_alpha", "_" + MTYPE[dt], [Scalar(SCALAR_NAME[dt], alpha)]


def nonzero(b, dt):
    v = values(b, dt)
    return as_dtype(np.where(np.abs(v) < 0.25, 0.5, v), dt)


def dense(op, dt, n, alpha=None, nans=False):
    a, b = operand(dt, n), operand(dt, n)
    if op == "div_true":
        b = nonzero(b, dt)
    if nans:
        a = np.array(a)
        a[::17] = np.nan
        b[5::23] = np.nan
    name_op, suffix, extra = alpha_args(op, dt, alpha)
    want = compute(name_op, values(a, dt), values(b, dt), dt, alpha)
    name = "%s_dense_%s_%s%s" % (name_op, MTYPE[dt], MTYPE[dt], suffix)
    o = out(want, dt)
    o.nan_ok = nans
    bufs = {0: o, 1: a, 2: b}
    for k, v in enumerate(extra):
        bufs[3 + k] = v
    ref.case("torch_binary_%s_%d" % (name, n), name, bufs, **dispatch_1d(n))


def dense_cast(op, adt, bdt, n):
    """Inputs of two dtypes (a float tensor and an int tensor): the output is the common dtype (float)."""
    a, b = operand(adt, n), operand(bdt, n, -9, 9)
    if op == "div_true":
        b = np.where(b == 0, 3, b).astype(bdt)
    want = compute(op, values(a, adt), values(b, bdt), np.float32)
    name = "%s_dense_cast_float" % op
    ref.case("torch_binary_%s_%s_%s_%d" % (name, MTYPE[adt], MTYPE[bdt], n), name,
             {0: out(want, np.float32), 1: a, 2: b,
              3: uints([itemsize(adt), itemsize(bdt), SCALAR_TYPE[adt], SCALAR_TYPE[bdt]])}, **dispatch_1d(n))


def broadcast(op, dt, full_shape, bc_shape, bc_on_lhs, alpha=None):
    full, bc = operand(dt, full_shape), operand(dt, bc_shape)
    name_op, suffix, extra = alpha_args(op, dt, alpha)
    fv, bv = values(full, dt), np.broadcast_to(values(bc, dt), full_shape)
    want = compute(name_op, bv, fv, dt, alpha) if bc_on_lhs else compute(name_op, fv, bv, dt, alpha)
    name = "%s_dense_broadcast%s_%s_%s%s" % (name_op, "_rhs" if bc_on_lhs else "", MTYPE[dt], MTYPE[dt], suffix)
    bufs = {0: out(want.reshape(-1), dt), 1: bc if bc_on_lhs else full, 2: full if bc_on_lhs else bc,
            3: Scalar("long", bc.size)}
    for k, v in enumerate(extra):
        bufs[4 + k] = v
    n = int(np.prod(full_shape))
    ref.case("torch_binary_%s_%s" % (name, "x".join(map(str, full_shape))), name, bufs, **dispatch_1d(n))


def scalar(op, dt, n, on_lhs, alpha=None):
    x, s = operand(dt, n), operand(dt, 1, 1, 3)
    if op == "div_true" and not on_lhs:
        s = as_dtype([1.75], dt)
    if op == "div_true" and on_lhs:
        x = nonzero(x, dt)
    name_op, suffix, extra = alpha_args(op, dt, alpha)
    xv, sv = values(x, dt), values(s, dt)[0]
    want = compute(name_op, sv, xv, dt, alpha) if on_lhs else compute(name_op, xv, sv, dt, alpha)
    name = "%s_dense_scalar%s_%s_%s%s" % (name_op, "_lhs" if on_lhs else "", MTYPE[dt], MTYPE[dt], suffix)
    bufs = {0: out(want, dt), 1: s if on_lhs else x, 2: x if on_lhs else s}
    for k, v in enumerate(extra):
        bufs[3 + k] = v
    ref.case("torch_binary_%s_%d" % (name, n), name, bufs, **dispatch_1d(n))


def iter_layout(shape, operands):
    """TensorIterator's shape and byte strides for a C-contiguous output of SHAPE: dimensions fastest first, each
    operand's element strides (0 where broadcast) times its item size, adjacent dimensions coalesced where every
    operand allows it. OPERANDS: [(element strides over SHAPE, itemsize)]."""
    dims = list(shape)[::-1]
    strides = [[s * size for s in st][::-1] for st, size in operands]
    d = 0
    while d + 1 < len(dims):
        if all(st[d + 1] == st[d] * dims[d] or dims[d] == 1 or dims[d + 1] == 1 for st in strides):
            for st in strides:
                if dims[d] == 1:
                    st[d] = st[d + 1]
                del st[d + 1]
            dims[d] *= dims[d + 1]
            del dims[d + 1]
        else:
            d += 1
    return dims, strides


def view_strides(view, shape):
    """Element strides of VIEW broadcast to SHAPE (0 along broadcast dimensions)."""
    b = np.broadcast_to(view, shape)
    return [s // view.itemsize for s in b.strides]


def strided(op, dt, shape, a_of, b_of, alpha=None, label=""):
    """a = A_OF(base_a), b = B_OF(base_b): views (transposes, slices) or broadcast shapes; the output is new."""
    ba, bb = a_of[0], b_of[0]
    A, B = operand(dt, ba), operand(dt, bb)
    if op == "div_true":
        B = nonzero(B, dt)
    av, bv = a_of[1](A), b_of[1](B)
    name_op, suffix, extra = alpha_args(op, dt, alpha)
    want = compute(name_op, np.broadcast_to(values(np.ascontiguousarray(av), dt), shape),
                   np.broadcast_to(values(np.ascontiguousarray(bv), dt), shape), dt, alpha)
    size = itemsize(dt)
    out_strides = list(np.cumprod((list(shape[1:]) + [1])[::-1])[::-1])
    dims, (so, sa, sb) = iter_layout(shape, [(out_strides, size), (view_strides(av, shape), size),
                                             (view_strides(bv, shape), size)])
    offs_a = (av.__array_interface__["data"][0] - A.__array_interface__["data"][0]) // A.itemsize
    offs_b = (bv.__array_interface__["data"][0] - B.__array_interface__["data"][0]) // B.itemsize
    name = "%s_strided_%s_%s%s" % (name_op, MTYPE[dt], MTYPE[dt], suffix)
    first = 3 + len(extra)
    bufs = {0: out(want.reshape(-1), dt), 1: A.reshape(-1)[offs_a:], 2: B.reshape(-1)[offs_b:]}
    for k, v in enumerate(extra):
        bufs[3 + k] = v
    bufs.update({first: longs(dims), first + 1: longs(so), first + 2: longs(sa), first + 3: longs(sb),
                 first + 4: uints([len(dims), SCALAR_TYPE[dt], SCALAR_TYPE[dt], SCALAR_TYPE[dt]])})
    ref.case("torch_binary_%s_%s%s" % (name, "x".join(map(str, shape)), label), name, bufs,
             **dispatch_1d(int(np.prod(shape))))


dense("add", np.float32, 10001)
dense("add", np.float16, 4097, alpha=2.5)                    # add_alpha: a + alpha * b in half
dense("sub", np.float32, 3000, alpha=-0.75)
dense("mul", "bf16", 1027)                                   # opmath: the product in float, rounded once
dense("div_true", np.float32, 2001)
dense("maximum", np.float32, 999, nans=True)                 # NaN from either side propagates
dense("maximum", np.float16, 513)
dense_cast("mul", np.float32, np.int32, 1000)                # float * int: val_at_offs by ScalarType
broadcast("add", np.float32, (7, 129), (129,), False)        # x + row
broadcast("mul", np.float16, (5, 33), (33,), True)           # row * x: the _rhs kernel
broadcast("sub", np.float32, (3, 4, 50), (4, 50), False, alpha=2.0)
scalar("div_true", np.float32, 1001, False)                  # x / s, s a one-element tensor
scalar("sub", np.float32, 777, True)                         # s - x
scalar("add", np.float16, 300, False, alpha=-3.0)
strided("add", np.float32, (17, 23), ((23, 17), lambda x: x.T), ((17, 23), lambda x: x))
strided("add", np.float16, (5, 6, 7), ((5, 1, 7), lambda x: x), ((6, 7), lambda x: x), alpha=0.5,
        label="_bcast")                                       # both operands broadcast: no dense kernel
strided("maximum", np.float32, (9, 10), ((9, 31), lambda x: x[:, 1::3]), ((10, 9), lambda x: x.T))
strided("div_true", "bf16", (4, 64), ((4, 128), lambda x: x[:, ::2]), ((64,), lambda x: x))

if __name__ == "__main__":
    raise SystemExit(ref.main())
