#version 450
// Translated by mtl2glsl 0.1.0 from mlx_params.metal, kernel gather_nd3

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { int a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { int out_[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_strides { int strides[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

int loc_3_int_strides(uvec3 elem, uint strides_p)
{
    return int(elem.x * uint(strides[strides_p + 2u]) + elem.y * uint(strides[strides_p + 1u]) + elem.z * uint(strides[strides_p]));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uvec3 index = gl_GlobalInvocationID;
    uvec3 grid_dim = mtl_params.mtl_threads_per_grid;
    int idx = loc_3_int_strides(index, 0u);
    out_[index.x + grid_dim.x * (index.y + grid_dim.y * index.z)] = a[idx] + strides[0] - strides[0];
}
