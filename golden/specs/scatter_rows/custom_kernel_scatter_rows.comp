#version 450
// Translated by mtl2glsl 0.1.0 from scatter_rows.json, kernel custom_kernel_scatter_rows

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x_shape { int x_shape[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_idx { int idx[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uvec3 thread_position_in_grid = gl_GlobalInvocationID;
    uvec2 p = thread_position_in_grid.xy;
    uint d = uint(x_shape[1]);
    out_[uint(idx[p.y]) * d + p.x] = x[p.y * d + p.x];
}
