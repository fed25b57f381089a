#version 450
// Translated by mtl2glsl 0.1.0 from threadgroup_memory.metal, kernel simdgroup_exchange

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// Partial threadgroups at the grid's edge run as smaller workgroups, so that only existing threads run,
// as in Metal; the threadgroup size asked for is in specialization constants 3, 4, 5.
layout(constant_id = 3) const uint mtl_threadgroup_full_x = 1u;
layout(constant_id = 4) const uint mtl_threadgroup_full_y = 1u;
layout(constant_id = 5) const uint mtl_threadgroup_full_z = 1u;
const uvec3 mtl_threads_per_threadgroup_full = uvec3(mtl_threadgroup_full_x, mtl_threadgroup_full_y, mtl_threadgroup_full_z);
const uint mtl_threadgroup_full_total = mtl_threadgroup_full_x * mtl_threadgroup_full_y * mtl_threadgroup_full_z;
const uint mtl_threadgroup_total = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { ivec2 in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { ivec2 out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared ivec2 slots[8][32];

// SIMD-group functions for 8-wide subgroups (emulated: 32-lane groups across the device's subgroups).
// SIMD-groups of 32 threads by local index, as Metal numbers them.
uint mtl_thread_index_in_simdgroup() { return gl_LocalInvocationIndex & 31u; }
uint mtl_simdgroup_index_in_threadgroup() { return gl_LocalInvocationIndex >> 5u; }

void main()
{
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lane = mtl_thread_index_in_simdgroup();
    uint simd_group = mtl_simdgroup_index_in_threadgroup();
    slots[simd_group][lane] = in_[gid];
    memoryBarrierShared();
    barrier();
    out_[gid] = slots[simd_group][lane ^ 1u];
}
