#!/usr/bin/python3
"""MLX's sort and argsort in one block (kernels/sort.metal, launched by single_block_sort in
mlx/backend/metal/sort.cpp) against NumPy: one threadgroup of bn threads (32..512, 4 values each) per row sorted
in threadgroup memory by merge sort; `c_block_sort_<in>_<out>_bn<bn>_tn4` / `carg_block_sort_<in>_uint32_...`:
in, out, size, in and out stride of the sorted axis, in and out stride between rows (int) at 0-6, threadgroups
(1, rows, 1). Sorted values are compared exactly; argsort inputs are distinct (its order of equal values is
not NumPy's stable one)."""
import numpy as np

from mlxcase import EXACT, TNAME, Out, Scalar, as_dtype, reference, rng

ref = reference("sort.metal")
r = rng(411)


def bn_for(size, itemsize):
    p = -(-size // 4)
    bn = 512 if p > 256 else 256 if p > 128 else 128 if p > 64 else 64 if p > 32 else 32
    return 256 if bn == 512 and itemsize > 4 else bn


def case(dt, shape, axis, arg=False):
    n = int(np.prod(shape))
    if arg:
        x = as_dtype(r.permutation(n).reshape(shape) - n // 2, dt)
    elif np.dtype(dt).kind == "f":
        x = as_dtype(r.uniform(-100, 100, shape), dt)
    else:
        x = r.integers(-1000, 1000, shape).astype(dt)
    want = np.argsort(x, axis=axis, kind="stable").astype(np.uint32) if arg else np.sort(x, axis=axis)
    strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    size = shape[axis]
    sorted_stride = strides[axis]
    seg = min(s for i, s in enumerate(strides) if i != axis and shape[i] != 1)
    bn = bn_for(size, np.dtype(dt).itemsize)
    assert bn * 4 >= size, "one block only"
    entry = "c%s_block_sort_%s_%s_bn%d_tn4" % ("arg" if arg else "", TNAME[dt], "uint32" if arg else TNAME[dt], bn)
    ref.case("mlx_%s_%s_axis%d" % (entry, "x".join(map(str, shape)), axis), entry,
             {0: x.reshape(-1), 1: Out(want.reshape(-1), tol=EXACT), 2: Scalar("int", size),
              3: Scalar("int", sorted_stride), 4: Scalar("int", sorted_stride), 5: Scalar("int", seg),
              6: Scalar("int", seg)},
             threadgroup=bn, threadgroups=(1, n // size, 1))


case(np.float32, (5, 1000), 1)          # 256 threads
case(np.int32, (3, 100), 1, arg=True)   # 32 threads, argsort
case(np.float32, (200, 6), 0)           # the sorted axis strided
case(np.float16, (4, 37), 1)
case(np.uint8, (2, 2000), 1)            # 512 threads

if __name__ == "__main__":
    raise SystemExit(ref.main())
