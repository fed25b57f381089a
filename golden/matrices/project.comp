#version 450
// Translated by mtl2glsl 0.1.0 from matrices.metal, kernel project

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_points { vec4 points[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_col { precise vec4 out_col[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_row { precise vec4 out_row[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) mat4 view;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    mat4 view = mtl_params.view;
    uint i = gl_GlobalInvocationID.x;
    precise vec4 p = points[i];
    out_col[i] = view * p;
    out_row[i] = p * view + view[i % 4u] + vec4(view[3][i % 4u]);
}
