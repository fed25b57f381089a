"""The part of mlx.core that metal_kernel scripts use, for `import mtl2glsl.mlx as mx` in place of
`import mlx.core as mx`: mx.fast.metal_kernel, mx.array, the dtypes, mx.eval, mx.synchronize, mx.zeros / ones /
full, mx.allclose and mx.array_equal. Arrays are DeviceArrays: their data stays on the device between kernels.
"""
import numpy as _np

from . import fast  # noqa: F401
from ._array import DeviceArray, array, full, zeros  # noqa: F401
from ._dtypes import (bfloat16, complex64, float16, float32, int8, int16, int32, int64, uint8,  # noqa: F401
                      uint16, uint32, uint64)
from ._dtypes import bool_  # noqa: F401
from . import synchronize  # noqa: F401


__all__ = ["fast", "DeviceArray", "array", "zeros", "ones", "full", "eval", "synchronize", "allclose",
           "array_equal", "float32", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "uint16",
           "uint32", "uint64", "bool_", "complex64"]


def eval(*arrays):
    """MLX evaluates lazily; kernels here run when called, so there is nothing left to do."""


def ones(shape, dtype=float32):
    return full(shape, 1, dtype)


def allclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=False):
    return bool(_np.allclose(_np.asarray(a), _np.asarray(b), rtol=rtol, atol=atol, equal_nan=equal_nan))


def array_equal(a, b, equal_nan=False):
    return bool(_np.array_equal(_np.asarray(a), _np.asarray(b), equal_nan=equal_nan))
