#version 450
// Translated by mtl2glsl 0.1.0 from atomics.metal, kernel atomic_ops

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_acc { int acc[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_bits { uint bits[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_v { int v[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_old_seen { int old_seen[]; };

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
    atomicMin(acc[0], v[i]);
    atomicMax(acc[1], v[i]);
    atomicAdd(acc[2], -v[i]);
    atomicOr(bits[0], 1u << (i % 32u));
    atomicAnd(bits[1], ~(1u << (i % 32u)));
    atomicXor(bits[2], uint(v[i]));
    old_seen[i] = atomicExchange(acc[3u + i], 2 * int(i));
}
