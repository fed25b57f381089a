#version 450
// Translated by mtl2glsl 0.1.0 from torch_kernels.metal, kernel vec3_shifted

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_raw { float raw[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint off;
} mtl_params;

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'raw' read as packed_float3 from 4-byte steps, member by member
vec3 mtl_load_raw_packed_vec3(uint i)
{
    vec3 v;
    v[0] = raw[i];
    v[1] = raw[i + 1u];
    v[2] = raw[i + 2u];
    return v;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint off = mtl_params.off;
    uint i = gl_GlobalInvocationID.x;
    uint v = off;
    y[i] = mtl_load_raw_packed_vec3(v + i * 3u).x - mtl_load_raw_packed_vec3(v + i * 3u).z + dot(vec3(mtl_load_raw_packed_vec3(v + i * 3u)), vec3(1, 2, 4));
}
