"""mtl2glsl.fast.metal_kernel: the spelling of mx.fast.metal_kernel."""
from ._mlx import metal_kernel  # noqa: F401

__all__ = ["metal_kernel"]
