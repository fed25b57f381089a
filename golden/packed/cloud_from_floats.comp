#version 450
// Translated by mtl2glsl 0.1.0 from packed.metal, kernel cloud_from_floats
#extension GL_EXT_scalar_block_layout : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_raw { float raw[]; };
layout(scalar, set = 0, binding = 0) readonly buffer mtl_buffer_raw_as_packed_vec3 { vec3 raw_as_packed_vec3[]; }; // 'raw' read as packed_float3
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise vec4 out_[]; };

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
    uint i = gl_GlobalInvocationID.x;
    uint v = 0u;
    precise vec3 pair[2] = vec3[2](raw_as_packed_vec3[v + 2u * i], raw_as_packed_vec3[v + (2u * i + 1u)]);
    out_[i] = vec4(pair[0].zyx + pair[1], pair[1][2]);
}
