#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel ulong_min_max
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_atomic_int64 : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_v { uint64_t v[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_m { uint64_t m[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_count { int count[]; };
layout(std430, set = 0, binding = 3) buffer mtl_buffer_bits { uint bits[]; };

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
    atomicMin(m[0], v[i]);
    atomicMax(m[1], v[i]);
    atomicAdd(count[0], 1);
    atomicOr(bits[0], 1u << (i % 32u));
}
