#version 450
// Translated by mtl2glsl 0.1.0 from mlx_params.metal, kernel add_nd2
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise float out_[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_a_strides { int64_t a_strides[]; };
layout(std430, set = 0, binding = 4) readonly buffer mtl_buffer_b_strides { int64_t b_strides[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

int64_t loc_2_long_a_strides(uvec2 elem, uint strides)
{
    return int64_t(elem.x) * a_strides[strides + 1u] + int64_t(elem.y) * a_strides[strides];
}

int64_t loc_2_long_b_strides(uvec2 elem, uint strides)
{
    return int64_t(elem.x) * b_strides[strides + 1u] + int64_t(elem.y) * b_strides[strides];
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uvec2 index = gl_GlobalInvocationID.xy;
    uvec2 grid_dim = mtl_params.mtl_threads_per_grid.xy;
    int64_t a_idx = loc_2_long_a_strides(index, 0u);
    int64_t b_idx = loc_2_long_b_strides(index, 0u);
    int64_t out_idx = int64_t(index.x) + int64_t(grid_dim.x) * int64_t(index.y);
    out_[int(out_idx)] = a[int(a_idx)] + b[int(b_idx)];
}
