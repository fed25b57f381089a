"""mtl2glsl: run the Metal compute kernels of Python scripts on Vulkan (Linux), with only the imports changed.

Three conventions (docs/python.md):
  compile_shader(source)               torch.mps.compile_shader: lib.NAME(*args, threads=, group_size=)
  metal_kernel(name, input_names, output_names, source, ...)   mx.fast.metal_kernel (also mtl2glsl.fast / .mlx)
  coreai.TorchMetalKernel(...), coreai.MetalParameter(...)     coreai_torch's TorchMetalKernel
Device arrays (DeviceArray, array(), zeros()) keep data on the device between kernel calls.
mtl2glsl.golden records and writes golden test files for `mtltest` (docs/golden-tests.md); it needs only NumPy, so
it imports on a Mac without this package's libraries.
"""
from ._dtypes import (DTYPES, Dtype, bfloat16, bfloat16_bits_to_float32, bool_, complex64, dtype, float16,
                      float32, float32_to_bfloat16_bits, int8, int16, int32, int64, uint8, uint16, uint32, uint64)
try:
    from ._lib import DeviceError, Error, TranslationError
    from ._array import DeviceArray, array, empty, full, zeros
    from ._compile import compile_shader
    from ._mlx import metal_kernel
    from ._timing import time_group_sizes
    from . import fast  # noqa: F401  (mtl2glsl.fast.metal_kernel, as mx.fast.metal_kernel)
    from . import coreai  # noqa: F401
except (ImportError, OSError) as _missing_libraries:
    # The libraries are not there or cannot be loaded (a Mac recording goldens with mtl2glsl.golden, which needs
    # NumPy only; sanitized builds in an unsanitized python3): the rest of the package raises this error when used.
    _library_error = _missing_libraries

    def __getattr__(name):
        # a submodule that needs no library (`from mtl2glsl import golden`): AttributeError lets the import
        # system load it
        if name.startswith("__") or name in ("golden", "_dtypes"):
            raise AttributeError(name)
        raise ImportError("mtl2glsl.%s: %s" % (name, _library_error))

__version__ = "0.1.0"


def synchronize():
    """Wait for the device. Every kernel call already waits for its dispatch, so there is nothing left to wait for;
    kept so that scripts calling torch.mps.synchronize() / mx.eval() read the same."""


def device_name():
    """The Vulkan device kernels run on (env MTL2GLSL_DEVICE picks one)."""
    from ._lib import runtime
    return runtime().device_name


__all__ = ["compile_shader", "metal_kernel", "DeviceArray", "array", "zeros", "empty", "full", "synchronize",
           "device_name", "time_group_sizes", "dtype", "Dtype", "DTYPES", "Error", "TranslationError",
           "DeviceError", "float32", "float16", "bfloat16", "int8", "uint8", "int16", "uint16", "int32", "uint32",
           "int64", "uint64", "bool_", "complex64", "float32_to_bfloat16_bits", "bfloat16_bits_to_float32", "fast",
           "coreai"]
