"""The spelling of torch.mps for compile_shader scripts: `from mtl2glsl.torch import compile_shader` in place of
`from torch.mps import compile_shader`, or `import mtl2glsl.torch as mps` in place of `import torch.mps as mps`.

Tensors are torch's own (CPU: Debian's python3-torch); a kernel call copies them to the device and the ones the
kernel writes back in place, as MPS updates its tensors. Each call waits for the GPU, so synchronize() returns at
once.
"""
from ._compile import compile_shader  # noqa: F401
from . import synchronize  # noqa: F401


def is_available():
    """True: kernels run on the Vulkan device (mtl2glsl.device_name())."""
    return True

__all__ = ["compile_shader", "synchronize", "is_available"]
