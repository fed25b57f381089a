"""Metal kernels in Core AI's TorchMetalKernel style (coreai_torch), run by mtl2glsl on Vulkan.

On a Mac this script runs with Core AI by changing only the imports below (docs/python.md shows the diff):
    from coreai.authoring import MetalParameter
    from coreai_torch import TorchMetalKernel
The kernels are PyTorch ops returning tensors, usable inside an nn.Module; tests/python/test_samples.py checks them
against torch on the CPU.
"""
import torch

from mtl2glsl.coreai import MetalParameter, TorchMetalKernel


def torch_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Reference implementation for shape inference during export."""
    return x + y


vector_add = TorchMetalKernel(
    "vector_add",
    input_names=["x", "y"],
    result_names=["output"],
    src="output[id] = x[id] + y[id];",
    torch_defn=torch_add,
    metal_params=[MetalParameter("id", "uint", "thread_position_in_grid")],
)


def torch_sincos(x: torch.Tensor):
    return torch.sin(x), torch.cos(x)


sincos = TorchMetalKernel(
    "sincos",
    input_names=["x"],
    result_names=["s", "c"],
    src="""
        if (id >= x.get_extent(0)) return;
        float v = x[id];
        s[id] = precise::sin(v);
        c[id] = precise::cos(v);
    """,
    torch_defn=torch_sincos,
    metal_params=[MetalParameter("id", "uint", "thread_position_in_grid")],
)


def torch_matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a @ b


# C = A @ B in A's own type (TYPE), accumulated in float; extent 0 is the innermost dimension and the first
# subscript indexes it: A[k, m] is A[m][k].
matmul = TorchMetalKernel(
    "typed_matmul",
    input_names=["A", "B"],
    result_names=["C"],
    src="""
        uint K = A.get_extent(0);
        if (gid.x >= C.get_extent(0) || gid.y >= C.get_extent(1)) return;
        float acc = 0.0f;
        for (uint k = 0; k < K; k++)
            acc = fma(float(A[k, gid.y]), float(B[gid.x, k]), acc);
        C[gid.x, gid.y] = to_type(acc);
    """,
    torch_defn=torch_matmul,
    metal_params=[MetalParameter("gid", "uint2", "thread_position_in_grid")],
    helper_src="static inline TYPE to_type(float v) { return TYPE(v); }",
    template_dtypes={"A": "TYPE"},
)


class AddThenMatmul(torch.nn.Module):
    """The kernels inside a module's forward, as Core AI users write them."""

    def forward(self, a, b, bias):
        m, n = a.shape[0], b.shape[1]
        c = matmul(a, b, threads_per_grid=(n, m, 1), threads_per_thread_group=(8, 8, 1), result_shapes=[[m, n]])
        flat = vector_add(c.reshape(-1), bias.reshape(-1), threads_per_grid=(m * n, 1, 1),
                          threads_per_thread_group=(64, 1, 1), result_shapes=[[m * n]])
        return flat.reshape(m, n)


if __name__ == "__main__":
    a, b = torch.randn(5, 7), torch.randn(7, 3)
    out = AddThenMatmul()(a, b, torch.ones(5, 3))
    print("max error", (out - (a @ b + 1)).abs().max().item())
