#!/usr/bin/python3
"""MLX's binary kernels (kernels/binary.metal, launched by mlx/backend/metal/binary.cpp) against NumPy.

The host picks the kernel by the operands' layout (get_binary_op_type): both contiguous `vv_OP<type>`, a scalar
and a contiguous array `sv_` / `vs_` (`vvn_`... with 8 bytes of elements a thread from 65,536 elements on),
arguments a, b, out, size (uint) at 0-3, a 1-D grid of ceil(size / work) threads in groups of min(1024, threads).
Otherwise `g1_`..`g3_` for up to three dimensions after collapse_contiguous_dims (a, b, out, then the strides
of a and b: int64 scalars for one dimension, int64[n] arrays for two and three; grid (shape[-1], shape[-2],
rest)), or `gn2_` beyond (shape int32[n], the strides of a and b, ndim (int) at 3-6, two elements a thread along
the last dimension); get_block_dims groups. Broadcast dimensions have stride 0.
"""
import numpy as np

from mlxcase import (BF16, EXACT, F16, F32, F32_TRANSCENDENTAL, TNAME, Out, Scalar, as_dtype, block_dims, i32, i64,
                     reference, rng, values, work_per_thread)

ref = reference("binary.metal")
r = rng(402)


def remainder(x, y):
    """MLX's Remainder: the result has the divisor's sign (Python's %, NumPy's mod)."""
    if x.dtype.kind == "f":
        return np.mod(x, y)
    return np.mod(x, y)


OPS = {  # op: (numpy on float64 values, input range)
    "Add": (np.add, (-100, 100)),
    "Multiply": (np.multiply, (-30, 30)),
    "Subtract": (np.subtract, (-100, 100)),
    "Divide": (np.divide, (1, 50)),
    "Maximum": (np.maximum, (-100, 100)),
    "LogAddExp": (np.logaddexp, (-20, 20)),
    "Remainder": (remainder, (-50, 50)),
}
TOL = {np.float32: F32, np.float16: F16, "bf16": BF16}


def inputs(op, dt, shape):
    lo, hi = OPS[op][1]
    if dt in (np.int32, np.uint32):
        a = r.integers(max(lo, 0) if dt == np.uint32 else lo, hi, shape).astype(dt)
        if op in ("Remainder", "Divide"):
            a[a == 0] = 7
        return a
    return as_dtype(r.uniform(lo, hi, shape), dt)


def want(op, a, b, dt):
    if dt in (np.int32, np.uint32):
        return OPS[op][0](a.astype(np.int64), b.astype(np.int64)).astype(dt)
    y = OPS[op][0](values(a, dt).astype(np.float64), values(b, dt).astype(np.float64))
    return as_dtype(y, dt)


def out(op, expected, dt):
    if dt in (np.int32, np.uint32):
        return Out(expected, tol=EXACT)
    t = F32_TRANSCENDENTAL if (op == "LogAddExp" and dt == np.float32) else TOL[dt]
    return Out(expected, tol=t, bf16=dt == "bf16")


def contiguous(kind, op, dt, n):
    """kind: vv (both arrays), sv (a scalar, b an array), vs."""
    a = inputs(op, dt, 1 if kind == "sv" else n)
    b = inputs(op, dt, 1 if kind == "vs" else n)
    expected = want(op, np.broadcast_to(a, n), np.broadcast_to(b, n), dt)
    itemsize = 2 if dt in (np.float16, "bf16") else np.dtype(dt).itemsize
    work = work_per_thread(itemsize, n)
    name = "%s%s_%s%s" % (kind, "n" if work > 1 else "", op, TNAME[dt])
    nthreads = -(-n // work)
    ref.case("mlx_binary_%s_%d" % (name, n), name,
             {0: a, 1: b, 2: out(op, expected, dt), 3: np.asarray([n], dtype=np.uint32)},
             threadgroup=min(1024, nthreads), grid=nthreads)


def collapse(shape, strides_list):
    """collapse_contiguous_dims: merges dimension i into i+1 where, for every array, stride[i] equals
    stride[i+1] * shape[i+1] (drops size-1 dimensions first)."""
    keep = [i for i, s in enumerate(shape) if s != 1] or [len(shape) - 1]
    shape = [shape[i] for i in keep]
    strides_list = [[st[i] for i in keep] for st in strides_list]
    out_shape, out_strides = [shape[0]], [[st[0]] for st in strides_list]
    for i in range(1, len(shape)):
        if all(os_[-1] == st[i] * shape[i] for os_, st in zip(out_strides, strides_list)):
            out_shape[-1] *= shape[i]
            for os_, st in zip(out_strides, strides_list):
                os_[-1] = st[i]
        else:
            out_shape.append(shape[i])
            for os_, st in zip(out_strides, strides_list):
                os_.append(st[i])
    return out_shape, out_strides


def broadcast_strides(a_shape, out_shape):
    """Element strides of a C-contiguous array of A_SHAPE broadcast to OUT_SHAPE (0 where broadcast)."""
    a_shape = [1] * (len(out_shape) - len(a_shape)) + list(a_shape)
    st, acc = [0] * len(out_shape), 1
    for i in range(len(out_shape) - 1, -1, -1):
        st[i] = 0 if a_shape[i] == 1 and out_shape[i] != 1 else acc
        acc *= a_shape[i]
    return st


def general(op, dt, a_shape, b_shape):
    out_shape = list(np.broadcast_shapes(a_shape, b_shape))
    a = inputs(op, dt, a_shape)
    b = inputs(op, dt, b_shape)
    expected = want(op, np.broadcast_to(a, out_shape), np.broadcast_to(b, out_shape), dt).reshape(-1)
    out_strides = broadcast_strides(out_shape, out_shape)
    shape, (sa, sb, _) = collapse(out_shape, [broadcast_strides(a_shape, out_shape),
                                              broadcast_strides(b_shape, out_shape), out_strides])
    ndim = len(shape)
    dim0 = shape[-1]
    dim1 = shape[-2] if ndim > 1 else 1
    rest = int(np.prod(out_shape)) // (dim0 * dim1)
    bufs = {0: a.reshape(-1), 1: b.reshape(-1), 2: out(op, expected, dt)}
    if ndim <= 3:
        name = "g%d_%s%s" % (ndim, op, TNAME[dt])
        if ndim == 1:
            bufs.update({3: Scalar("long", sa[0]), 4: Scalar("long", sb[0])})
        else:
            bufs.update({3: i64(sa), 4: i64(sb)})
    else:
        name = "gn2_%s%s" % (op, TNAME[dt])
        dim0 = -(-dim0 // 2)
        bufs.update({3: i32(shape), 4: i64(sa), 5: i64(sb), 6: Scalar("int", ndim)})
    ref.case("mlx_binary_%s_%s_%s" % (name, "x".join(map(str, a_shape)), "x".join(map(str, b_shape))), name, bufs,
             threadgroup=block_dims(dim0, dim1, rest), grid=(dim0, dim1, rest))


contiguous("vv", "Add", np.float32, 1001)
contiguous("sv", "Add", np.float32, 999)
contiguous("vs", "Subtract", np.float16, 513)
contiguous("vv", "Multiply", np.float16, 70001)     # vvn_: 4 halves a thread
contiguous("vv", "Divide", "bf16", 321)
contiguous("vv", "Maximum", np.int32, 777)
contiguous("vv", "LogAddExp", np.float32, 1500)
contiguous("vv", "Remainder", np.int32, 640)
general("Add", np.float32, (7, 1), (1, 9))          # an outer sum: 2-D, both operands broadcast
general("Multiply", np.float32, (5, 6, 7), (6, 1))  # 3-D
general("Add", np.float32, (3, 1, 5, 1, 7), (1, 4, 5, 6, 1))   # 5-D after collapse: gn2_, odd last dimension
general("Subtract", np.float16, (11, 13), (13,))    # b repeats along rows
general("Maximum", np.int32, (4, 1, 6), (4, 5, 1))
general("Add", np.float32, (301,), (1,))            # 1-D with a broadcast scalar operand (g1_)

if __name__ == "__main__":
    raise SystemExit(ref.main())
