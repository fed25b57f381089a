#!/usr/bin/python3
"""PyTorch's unary kernels (kernels/UnaryKernel.metal with c10/metal/indexing.h's unary_dense / unary_strided,
launched by MetalShaderLibrary::exec_unary_kernel in mps/OperationUtils.mm) against NumPy.

The kernel is `{op}_{dense|strided}_{out type}_{in type}`: dense when the TensorIterator is contiguous. Buffers as
bind_iter_tensors binds them: output at 0, input at 1 (each at its view's storage offset). The strided kernel also
gets, through mtl_setArgs<2>, the output's sizes, the input's strides, the output's strides (int64 arrays, element
strides, the tensor's own dimension order) and the input's ndimension() (read as a uint). Grid: one thread per
element in groups of min(maxTotalThreadsPerThreadgroup, numel) (mtl_dispatch1DJob).
"""
import numpy as np

from torchcase import (MTYPE, InOut, as_dtype, dispatch_1d, erf, erfinv, itemsize, longs, out, reference, rng, tol,
                       values, Scalar)

ref = reference("UnaryKernel.metal")
r = rng(1401)

OPS = {
    "exp": (np.exp, (-9, 9), True),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), (-12, 12), True),
    "erf": (erf, (-3, 3), True),
    "erfinv": (erfinv, (-0.995, 0.995), True),
    "neg": (np.negative, (-100, 100), False),
}


def result_dtype(dt):
    """Integer inputs of exp, sigmoid, erf give float (the functors' integral overloads)."""
    return dt if dt in (np.float32, np.float16, "bf16") else np.float32


def inputs(op, dt, shape):
    lo, hi = OPS[op][1]
    if dt in (np.float32, np.float16, "bf16"):
        return as_dtype(r.uniform(lo, hi, shape), dt)
    return r.integers(int(lo), int(hi) + 1, shape).astype(dt)


def expected(op, x, dt):
    return OPS[op][0](values(x, dt))


def dense(op, dt, n):
    odt = result_dtype(dt)
    x = inputs(op, dt, n)
    name = "%s_dense_%s_%s" % (op, MTYPE[odt], MTYPE[dt])
    ref.case("torch_unary_%s_%d" % (name, n), name,
             {0: out(expected(op, x, dt), odt, OPS[op][2]), 1: x}, **dispatch_1d(n))


def strided(op, dt, base_shape, view, out_perm=None):
    """The input is VIEW (a function of the base array: a slice or transpose); the output a new contiguous tensor,
    or with OUT_PERM the transposed view of a contiguous tensor given as `out=` (its other elements stay)."""
    odt = result_dtype(dt)
    base = inputs(op, dt, base_shape)
    xv = view(base)
    shape = xv.shape
    want = expected(op, np.ascontiguousarray(xv), dt)
    offset = (xv.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // base.itemsize
    in_strides = [s // base.itemsize for s in xv.strides]
    flat = base.reshape(-1)[offset:]
    if out_perm is None:
        out_strides = list(np.cumprod((list(shape[1:]) + [1])[::-1])[::-1])
        o = out(want.reshape(-1), odt, OPS[op][2])
    else:
        # the `out=` tensor: its storage is C-contiguous of the permuted shape; the view puts dims back
        inv = np.argsort(out_perm)
        store_shape = tuple(shape[p] for p in out_perm)
        init = as_dtype(r.uniform(-1, 1, store_shape), odt)
        store_strides = list(np.cumprod((list(store_shape[1:]) + [1])[::-1])[::-1])
        out_strides = [store_strides[inv[d]] for d in range(len(shape))]
        new = np.array(init, copy=True)
        newv = as_dtype(want, odt).transpose(out_perm)   # want in the store's order
        new[...] = newv
        o = InOut(init.reshape(-1), new.reshape(-1), tol=tol(odt, OPS[op][2]))
    name = "%s_strided_%s_%s" % (op, MTYPE[odt], MTYPE[dt])
    ref.case("torch_unary_%s_%s%s" % (name, "x".join(map(str, shape)), "_out" if out_perm else ""), name,
             {0: o, 1: flat, 2: longs(shape), 3: longs(in_strides), 4: longs(out_strides), 5: Scalar("uint", len(shape))},
             **dispatch_1d(int(np.prod(shape))))


dense("exp", np.float32, 10007)
dense("exp", np.float16, 4097)
dense("exp", "bf16", 777)
dense("exp", np.int32, 1000)              # integral input, float output: exp_dense_float_int
dense("sigmoid", np.float32, 3001)
dense("sigmoid", np.float16, 1025)
dense("erf", np.float32, 2049)
dense("erf", "bf16", 513)
dense("erfinv", np.float32, 1001)
dense("erfinv", np.float16, 999)
dense("neg", np.float32, 1234)
dense("neg", np.float16, 77)
strided("exp", np.float32, (37, 106), lambda b: b[:, ::2])                     # every other column
strided("sigmoid", np.float16, (3, 4, 5), lambda b: b.transpose(2, 0, 1))      # a transposed input
strided("erfinv", np.float32, (9, 31), lambda b: b[2:, 1::3])                  # storage offset, step 3
strided("neg", "bf16", (6, 7), lambda b: b.T)
strided("erf", np.float32, (11, 13), lambda b: b, out_perm=(1, 0))             # out= a transposed view

if __name__ == "__main__":
    raise SystemExit(ref.main())
