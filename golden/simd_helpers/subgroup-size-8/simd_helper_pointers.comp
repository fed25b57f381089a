#version 450
// Translated by mtl2glsl 0.1.0 from simd_helpers.metal, kernel simd_helper_pointers
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Shared memory the SIMD-group functions exchange values through.
const uint mtl_subgroup_slots = (mtl_threadgroup_total + 8u - 1u) / 8u;
shared float mtl_part_float[mtl_subgroup_slots];

// SIMD-group functions for 8-wide subgroups (emulated: 32-lane groups across the device's subgroups).
// SIMD-groups of 32 threads by local index, as Metal numbers them.
uint mtl_thread_index_in_simdgroup() { return gl_LocalInvocationIndex & 31u; }
uint mtl_simdgroup_index_in_threadgroup() { return gl_LocalInvocationIndex >> 5u; }

uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

float mtl_sg_reduce_sum(float x, bool p)
{
    return subgroupAdd(p ? x : float(0));
}

float mtl_simd_reduce_sum(float x, bool p)
{
    float part = mtl_sg_reduce_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    float a = float(0);
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = (a + b);
    }
    return a;
}

float simd_sum(float x, bool mtl_p) { return mtl_simd_reduce_sum(x, mtl_p); }

void reduce_in_place_a(uint p, inout float a, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    float mtl_s1 = simd_sum(((mtl_live) ? a : float(0)), mtl_live);
    if (mtl_live)
    {
        a = mtl_s1;
    }
}

void reduce_in_place_b(uint p, inout float b, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    float mtl_s2 = simd_sum(((mtl_live) ? b : float(0)), mtl_live);
    if (mtl_live)
    {
        b = mtl_s2;
    }
}

void main()
{
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    precise float a = x[gid];
    precise float b = 2.0 * x[gid] + 1.0;
    reduce_in_place_a(0u, a, true);
    reduce_in_place_b(0u, b, true);
    out_[gid * 2u + 0u] = a;
    out_[gid * 2u + 1u] = b;
}
