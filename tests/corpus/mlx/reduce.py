#!/usr/bin/python3
"""MLX's reductions (kernels/reduce.metal, launched by Reduce::eval_gpu in mlx/backend/metal/reduce.cpp) against
NumPy: sum, prod, max and min of row-contiguous inputs over some axes, launched as the host code launches them.

The plan (get_reduction_plan, mlx/backend/common/reduce.cpp) merges consecutive reduced axes and drops size-1 ones:
reducing every axis is an all-reduce; a plan whose last stride is 1 a row reduce; else a column reduce.
- all_reduce_<op><type>: in, out, in_size, row_size (size_t) at 0-3. Up to 4096 elements one threadgroup of
  ceil(size / 4) threads rounded up to 32; past it two passes (a pipeline of two launches): 128 rows of
  ceil(size / 128) into an intermediate of 128 values (threadgroups of ceil(row / 4) threads rounded up to 32),
  then one threadgroup of 32 over the intermediate.
- Row reduce (RowReduceArgs: row_size, non_row_reductions, shape, strides, ndim, reduce_shape, reduce_strides,
  reduce_ndim at 2-9; the kept axes collapsed, empty vectors sent as [0]): rows up to 64 `row_reduce_small_N_` (a
  thread per output when there are at most 8 rows to a result, else a SIMD-group per output); a contiguous reduce of
  one axis over at least 32 rows `row_reduce_simple_` (4 outputs a threadgroup; row_size and out_size only);
  else `row_reduce_looped_N_` (a threadgroup per output). N is 1, 2 or 5 after the number of non-row reduced axes.
- Column reduce (ColReduceArgs: reduction_size, reduction_stride, shape, strides, ndim, reduce_shape,
  reduce_strides, reduce_ndim, non_col_reductions at 2-10, the column axis appended to the reduce_ vectors): under
  32 rows `col_reduce_small_N_` (threadgroups of up to 32 x 8); a stride under 32 and 1024 rows or more
  `col_reduce_longcolumn_N_` into 32 (128) partial blocks, then `col_reduce_looped_1_32_32_` over the blocks; over
  256 rows with under 32K outputs `col_reduce_2pass_N_32_32_` (32 blocks) then `col_reduce_looped_1_32_32_`; else
  `col_reduce_looped_N_32_32_`. Two-pass launches run as a pipeline on shared buffers.
Integer-valued inputs (and powers of two for prod) keep float sums and products exact in any order; float16 sums
accumulate in half, so their inputs stay in {-1, 0, 1}. The kernels with SIMD-group reductions run at every width
the tests use (32-lane SIMD-groups on 8-, 16-, 32- and 64-wide subgroups)."""
import numpy as np

from mlxcase import TNAME, Bytes, Out, Scalar, i32, i64, reference, rng

ref = reference("reduce.metal")
r = rng(414)
N_READS = 4
N_WRITES = 4


def c_strides(shape):
    st, acc = [], 1
    for s in reversed(shape):
        st.insert(0, acc)
        acc *= s
    return st


def collapse(shape, strides):
    """collapse_contiguous_dims of one array (mlx/backend/common/utils.cpp): keeps the first dimension, skips later
    size-1 ones, merges a dimension into the previous one where it is contiguous with it."""
    if not shape:
        return [], []
    cs, cst = [shape[0]], [strides[0]]
    for s, st in zip(shape[1:], strides[1:]):
        if s == 1:
            continue
        if st * s != cst[-1]:
            cs.append(s)
            cst.append(st)
        else:
            cs[-1] *= s
            cst[-1] = st
    return cs, cst


def grid_2d(shape, strides):
    """get_2d_grid_dims_common without a divisor: the product of the non-broadcast dimensions (one factor here)."""
    gx = 1
    for s, st in zip(shape, strides):
        if st != 0:
            gx *= s
    return gx, 1


def plan(shape, axes):
    """get_reduction_plan for a row-contiguous input: (kind, plan shape, plan strides)."""
    if len(axes) == len(shape):
        return "all", None, None
    st = c_strides(shape)
    ps, pst = [shape[axes[0]]], [st[axes[0]]]
    for i in range(1, len(axes)):
        if axes[i] - 1 == axes[i - 1] and shape[axes[i]] > 1:
            ps[-1] *= shape[axes[i]]
            pst[-1] = st[axes[i]]
        else:
            ps.append(shape[axes[i]])
            pst.append(st[axes[i]])
    keep = [i for i in range(len(ps)) if ps[i] != 1]
    ps, pst = [ps[i] for i in keep], [pst[i] for i in keep]
    return ("row" if pst[-1] == 1 else "col"), ps, pst


def kept(shape, axes):
    st = c_strides(shape)
    return [shape[i] for i in range(len(shape)) if i not in axes], [st[i] for i in range(len(shape)) if i not in axes]


def kernel_ndim(reduce_ndim):
    return 1 if reduce_ndim <= 1 else 2 if reduce_ndim == 2 else 5


def vec(v, dtype):
    """set_vector_bytes of a vector; an empty one is sent as [0]."""
    return np.asarray(list(v) or [0], dtype=dtype)


def tg_from_row_size(row_size):
    """threadgroup_size_from_row_size (reduce.cpp)."""
    if row_size <= 512:
        return 32
    if row_size <= 1024:
        return 128
    return min(1024, -(-(-(-row_size // N_READS)) // 32) * 32)


def host(shape, axes, op, tname, out_size):
    """The launches Reduce::eval_gpu encodes: [dict(entry, bind, threadgroup, grid | threadgroups, simd)] on buffers
    "x", "out" and "tmp" (an intermediate of (count, its size)), plus the intermediate's element count."""
    kind, ps, pst = plan(shape, axes)
    out_shape = [1 if i in axes else s for i, s in enumerate(shape)]
    out_strides = c_strides(out_shape)
    size = int(np.prod(shape))
    if kind == "all":
        name = "all_reduce_%s%s" % (op, tname)
        if size <= N_READS * 1024:
            tg = -(-(-(-size // N_READS)) // 32) * 32
            return [dict(entry=name, bind={0: "x", 1: "out", 2: Scalar("ulong", size), 3: Scalar("ulong", size)},
                         threadgroup=tg, grid=tg, simd=True)], 0
        n_rows, tg2 = 32 * N_READS, 32            # under 2**26 bytes
        row = -(-size // n_rows)
        tg = -(-min(-(-row // N_READS), 1024) // 32) * 32
        return [dict(entry=name, bind={0: "x", 1: "tmp", 2: Scalar("ulong", size), 3: Scalar("ulong", row)},
                     threadgroup=tg, grid=(tg, n_rows), simd=True),
                dict(entry=name, bind={0: "tmp", 1: "out", 2: Scalar("ulong", n_rows), 3: Scalar("ulong", n_rows)},
                     threadgroup=tg2, grid=tg2, simd=True)], n_rows
    ks, kst = collapse(*kept(shape, axes))
    if kind == "row":
        row_size, rshape, rstrides = ps[-1], ps[:-1], pst[:-1]
        non_row = int(np.prod(rshape)) if rshape else 1
        n = kernel_ndim(len(rshape))
        args = {2: Scalar("long", row_size), 3: Scalar("long", non_row), 4: vec(ks, np.int32), 5: vec(kst, np.int64),
                6: Scalar("int", len(ks)), 7: vec(rshape, np.int32), 8: vec(rstrides, np.int64),
                9: Scalar("int", len(rshape))}
        gx, gy = grid_2d(out_shape, out_strides)
        if row_size <= 64:
            name = "row_reduce_small_%d_reduce_%s%s" % (n, op, tname)
            if (non_row < 32 and row_size <= 8) or non_row <= 8:
                return [dict(entry=name, bind={0: "x", 1: "out", **args}, threadgroup=min(gx, 1024),
                             grid=(gx, gy), simd=False)], 0
            return [dict(entry=name, bind={0: "x", 1: "out", **args}, threadgroup=32, grid=(32, gx, gy),
                         simd=True)], 0
        if len(rshape) == 0 and size // row_size >= 32:
            tg = tg_from_row_size(row_size)
            return [dict(entry="row_reduce_simple_%s%s" % (op, tname),
                         bind={0: "x", 1: "out", 2: Scalar("ulong", row_size), 3: Scalar("long", out_size)},
                         threadgroup=tg, grid=(tg, -(-gx // N_WRITES), gy), simd=True)], 0
        tg = tg_from_row_size(row_size)
        return [dict(entry="row_reduce_looped_%d_reduce_%s%s" % (n, op, tname), bind={0: "x", 1: "out", **args},
                     threadgroup=tg, grid=(tg, gx, gy), simd=True)], 0
    # column reduce
    red_size, red_stride = ps[-1], pst[-1]
    rshape, rstrides = ps[:-1], pst[:-1]
    non_col = int(np.prod(rshape)) if rshape else 1
    sh, st = kept(shape, axes)
    back = 1
    while sh and back < red_stride:
        back *= sh[-1]
        sh, st = sh[:-1], st[:-1]
    ks, kst = collapse(sh, st)
    rows = red_size * non_col
    rshape, rstrides = rshape + [red_size], rstrides + [red_stride]
    n = kernel_ndim(len(rshape))
    args = {2: Scalar("ulong", red_size), 3: Scalar("long", red_stride), 4: vec(ks, np.int32),
            5: vec(kst, np.int64), 6: Scalar("int", len(ks)), 7: vec(rshape, np.int32), 8: vec(rstrides, np.int64),
            9: Scalar("int", len(rshape)), 10: Scalar("ulong", non_col)}
    osh, ost = list(out_shape), list(out_strides)
    while osh and ost[-1] < red_stride:
        osh, ost = osh[:-1], ost[:-1]
    gx, gy = grid_2d(osh, ost)

    def second(blocks):
        """The pass over the intermediate: ColReduceArgs(intermediate) with the blocks as one reduced axis."""
        return dict(entry="col_reduce_looped_1_32_32_reduce_%s%s" % (op, tname),
                    bind={0: "tmp", 1: "out", 2: Scalar("ulong", blocks), 3: Scalar("long", out_size),
                          4: vec([], np.int32), 5: vec([], np.int64), 6: Scalar("int", 0), 7: vec([blocks], np.int32),
                          8: vec([out_size], np.int64), 9: Scalar("int", 1), 10: Scalar("ulong", 1)},
                    threadgroup=256, grid=256 * -(-out_size // 32), simd=True)

    if rows < 32:
        blocks = -(-red_stride // 4)
        tx = min(blocks, 32)
        ty = min(8, 1024 // tx, rows)
        return [dict(entry="col_reduce_small_%d_reduce_%s%s" % (n, op, tname), bind={0: "x", 1: "out", **args},
                     threadgroup=(tx, ty), threadgroups=(-(-blocks // tx), gx, gy), simd=False)], 0
    if red_stride < 32 and rows >= 1024:
        outer = 128 if rows >= 32768 else 32
        ty = min(32, -(-rows // outer))
        first = dict(entry="col_reduce_longcolumn_%d_reduce_%s%s" % (n, op, tname),
                     bind={0: "x", 1: "tmp", 11: Scalar("ulong", out_size), **args},
                     threadgroup=(red_stride, ty), threadgroups=(gx, gy, outer), simd=False)
        return [first, second(outer)], outer * out_size
    if rows > 256 and out_size // 32 < 1024:
        first = dict(entry="col_reduce_2pass_%d_32_32_reduce_%s%s" % (n, op, tname),
                     bind={0: "x", 1: "tmp", 11: Scalar("ulong", out_size // red_stride), **args},
                     threadgroup=256, grid=(256 * -(-red_stride // 32), gx * 32, gy), simd=True)
        return [first, second(32)], 32 * out_size
    return [dict(entry="col_reduce_looped_%d_32_32_reduce_%s%s" % (n, op, tname),
                 bind={0: "x", 1: "out", **args}, threadgroup=256,
                 grid=(256 * -(-red_stride // 32), gx, gy), simd=True)], 0


NP_OP = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}


def inputs(op, dt, shape):
    if op == "prod":   # powers of two, mostly +-1: exact products in any order
        v = r.choice([1.0, -1.0, 2.0, 0.5 if np.dtype(dt).kind == "f" else 1.0], size=shape, p=[0.45, 0.45, 0.05, 0.05])
    elif op in ("max", "min"):
        v = r.integers(-1000, 1000, size=shape) / 8.0 if np.dtype(dt).kind == "f" else r.integers(-2**31, 2**31 - 1, size=shape)
    elif dt == np.float16:
        v = r.integers(-1, 2, size=shape)
    else:
        v = r.integers(-8, 9, size=shape)
    return np.asarray(v).astype(dt)


def case(op, dt, shape, axes, width=None, nan_at=None, note=""):
    x = inputs(op, dt, shape)
    if nan_at is not None:
        x[nan_at] = np.nan
    axes = tuple(sorted(axes))
    want = NP_OP[op](x.astype(np.float64) if np.dtype(dt).kind == "f" else x.astype(np.int64), axis=axes)
    want = np.asarray(want).astype(dt).reshape(-1)
    tname = TNAME[dt]
    launches, tmp = host(list(shape), list(axes), op, tname, want.size)
    assert any(k["simd"] for k in launches) or width is None, "no SIMD-group kernel to run at several widths"
    name = "mlx_%s_%s_ax%s%s%s" % (launches[0]["entry"], "x".join(map(str, shape)), "".join(map(str, axes)), note,
                                  "_w%d" % width if width else "")
    out = Out(want, nan_ok=nan_at is not None)
    if len(launches) == 1:
        k = launches[0]
        bufs = {i: {"x": x.reshape(-1), "out": out}[b] if isinstance(b, str) else b for i, b in k["bind"].items()}
        ref.case(name, k["entry"], bufs, threadgroup=k["threadgroup"], grid=k.get("grid"),
                 threadgroups=k.get("threadgroups"), width=width)
        return
    runs = []
    for k in launches:
        bind = {i: (Bytes(b.tobytes()) if isinstance(b, np.ndarray) else b) for i, b in k["bind"].items()}
        run = dict(entry=k["entry"], bind=bind, threadgroup=k["threadgroup"], width=width)
        run.update({g: k[g] for g in ("grid", "threadgroups") if g in k})
        runs.append(run)
    ref.pipeline(name, {"x": x.reshape(-1), "tmp": (dt, tmp), "out": out}, runs)


# all-reduce: one threadgroup; two passes through 128 partial results
case("sum", np.float32, (1000,), (0,))
for w in (8, 16, 32, 64):
    case("sum", np.float32, (10007,), (0,), width=w)
case("sum", np.float16, (5000,), (0,))
case("prod", np.float32, (3, 1500), (0, 1))
case("max", np.float32, (2000,), (0,), nan_at=(1234,), note="_nan")
# row reduce, small rows: a thread per output; a SIMD-group per output (40 rows of 20 to each result)
case("sum", np.float32, (7, 33), (1,))
case("prod", np.int32, (9, 3, 5), (1, 2))
for w in (8, 16, 32, 64):
    case("sum", np.float32, (40, 5, 20), (0, 2), width=w)
case("min", np.float16, (3, 50, 7, 9), (1, 3))
# row_reduce_simple: 4 outputs a threadgroup, the last group shifted back over the odd count
for w in (8, 16, 32, 64):
    case("sum", np.float32, (37, 1000), (1,), width=w)
case("sum", np.float16, (64, 300), (1,))
case("max", np.float16, (45, 2051), (1,))
# row_reduce_looped: a threadgroup per output, non-row reductions over 1 and 2 axes (the SIMD-group and threadgroup
# reduction row_reduce_simple's)
case("sum", np.float32, (5, 3001), (1,))
case("sum", np.float32, (6, 4, 200), (0, 2))
case("max", np.int32, (3, 2, 4, 2, 100), (0, 2, 4))
# column reduce: small; looped; two passes (the second col_reduce_looped); long columns
case("sum", np.float32, (5, 70), (0,))
case("sum", np.int32, (3, 4, 9, 5), (0, 2))
case("sum", np.float32, (40, 300), (0,))
case("min", np.int32, (3, 50, 61), (0, 1))
case("sum", np.float16, (100, 3, 45), (0,))
for w in (8, 16, 32, 64):
    case("sum", np.float32, (1000, 40), (0,), width=w)
case("max", np.float32, (3, 700, 33), (1,))
case("sum", np.float32, (2000, 10), (0,))
case("sum", np.int32, (40000, 3), (0,))

if __name__ == "__main__":
    raise SystemExit(ref.main())
