#version 450
// Translated by mtl2glsl 0.1.0 from mlx_like.metal, kernel copy_g1_float_float

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src { float src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_dst { precise float dst[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int stride;
} mtl_params;

int mlx_like_elem_to_loc(uint elem, int stride)
{
    return int(elem) * stride;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int stride = mtl_params.stride;
    uint index = gl_GlobalInvocationID.x;
    dst[index] = src[mlx_like_elem_to_loc(index, stride)];
}
