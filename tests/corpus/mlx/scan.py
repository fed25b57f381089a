#!/usr/bin/python3
"""MLX's scans (kernels/scan.metal, launched by scan_gpu_inplace in mlx/backend/metal/scan.cpp) against NumPy:
cumulative sum, max and logaddexp, inclusive or exclusive, forward or reverse. `contig_scan_...` (the scanned axis
contiguous): in, out, axis_size (size_t) at 0-2, a threadgroup per row of ceil(size / (32 * n_reads)) SIMD-groups
(fewer past 4096 elements, at most 1024 threads), grid (threads, get_2d_grid_dims(shape, strides, size)).
`strided_scan_...`: also stride and stride_blocks (size_t) at 3-4, 256 threads (32 columns a threadgroup).
Integer-valued inputs keep float sums exact, whatever the order. Run at each SIMD width for one case."""
import numpy as np

from mlxcase import EXACT, F16, TNAME, Out, Scalar, as_dtype, reference, rng, values

ref = reference("scan.metal")
r = rng(410)


def grid_2d(shape, strides, divisor):
    """get_2d_grid_dims_common with a divisor (mlx/backend/common/utils.cpp)."""
    gx, gy = 1, 1
    for s, st in zip(shape, strides):
        if st == 0:
            continue
        if divisor % s == 0:
            divisor //= s
            continue
        if gx * s < 2**32 - 1:
            gx *= s
        else:
            gy *= s
        if divisor > 1:
            if gx % divisor == 0:
                gx //= divisor
                divisor = 1
            elif gy % divisor == 0:
                gy //= divisor
                divisor = 1
    if gy > gx:
        gx, gy = gy, gx
    if divisor > 1:
        gx = -(-gx // divisor) * divisor
    return gx, gy


def numpy_scan(x, op, axis, inclusive, reverse):
    f = {"sum": np.cumsum, "max": np.maximum.accumulate, "logaddexp": np.logaddexp.accumulate}[op]
    init = {"sum": 0, "max": -np.inf, "logaddexp": -np.inf}[op]
    v = np.flip(x, axis) if reverse else x
    y = f(v, axis=axis)
    if not inclusive:
        y = np.concatenate([np.full_like(np.take(y, [0], axis=axis), init), np.delete(y, -1, axis=axis)], axis=axis)
    return np.flip(y, axis) if reverse else y


def case(op, dt, shape, axis, inclusive=True, reverse=False, width=None):
    if op == "sum":
        x = r.integers(0, 20, shape).astype(np.float64)
    else:
        x = r.uniform(-5, 5, shape)
    x = as_dtype(x, dt)
    v = values(x, dt).astype(np.float64) if np.dtype(dt if dt != "bf16" else np.float32).kind == "f" else x.astype(np.int64)
    want = numpy_scan(v, op, axis, inclusive, reverse)
    if op != "sum" and not inclusive and np.dtype(dt).kind == "f":
        want = np.where(np.isinf(want), np.finfo(np.float16 if dt == np.float16 else np.float32).min, want)
    want = as_dtype(want, dt) if dt != np.int32 else want.astype(np.int32)
    itemsize = np.dtype(dt).itemsize
    n_reads = 4 if itemsize <= 4 else 2
    size = shape[axis]
    strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    contiguous = strides[axis] == 1
    name = "%s_scan_%s%s_%s_%s_%s" % ("contig" if contiguous else "strided", "reverse_" if reverse else "",
                                       "inclusive" if inclusive else "exclusive", op, TNAME[dt], TNAME[dt])
    bufs = {0: x.reshape(-1), 1: None, 2: Scalar("ulong", size)}
    if contiguous:
        per_simd = n_reads * 32
        if size <= n_reads * 1024:
            tg = -(-size // per_simd) * 32
        elif size <= n_reads * 2048:
            tg = -(-(size // 2) // per_simd) * 32
        else:
            tg = 1024
        tg = min(tg, 1024)
        gx, gy = grid_2d(shape, strides, size)
    else:
        stride = strides[axis]
        blocks = -(-stride // 32)
        bufs.update({3: Scalar("ulong", stride), 4: Scalar("ulong", blocks)})
        tg = (32 // n_reads) * 32
        gx, gy = grid_2d(shape, strides, size * stride)
        gx *= blocks
    tol = EXACT if op == "sum" or op == "max" else ({"rtol": 2e-6, "atol": 2e-6} if dt == np.float32 else F16)
    bufs[1] = Out(want.reshape(-1), tol=tol)
    ref.case("mlx_%s_%s%s" % (name, "x".join(map(str, shape)), "_w%d" % width if width else ""), name, bufs,
             threadgroup=tg, grid=(tg, gx, gy), width=width)


for w in (8, 16, 32, 64):
    case("sum", np.float32, (3, 1000), 1, width=w)
case("sum", np.int32, (2, 5000), 1, inclusive=False)          # two values a thread per pass
case("max", np.float16, (4, 300), 1, reverse=True)
case("logaddexp", np.float32, (2, 777), 1)
case("sum", np.float32, (100, 70), 0)                         # strided: 32 columns a threadgroup
case("sum", np.int32, (50, 3, 40), 1, inclusive=False, reverse=True)

if __name__ == "__main__":
    raise SystemExit(ref.main())
