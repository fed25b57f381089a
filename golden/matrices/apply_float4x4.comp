#version 450
// Translated by mtl2glsl 0.1.0 from matrices.metal, kernel apply_float4x4

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_ms { mat4 ms[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_vs { vec4 vs[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise vec4 out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float corner(mat3 m)
{
    return m[0][0];
}

precise float corner(mat4 m)
{
    return m[3][3];
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise mat4 m = ms[i];
    out_[i] = m * vs[i] + (corner(mat3(0.5)) + corner(mat4(0.25)));
}
