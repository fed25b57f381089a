#version 450
// Translated by mtl2glsl 0.1.0 from radix.metal, kernel radix_prefix
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_counts { uint counts[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_offsets { uint offsets[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint count;
} mtl_params;

// Threadgroup memory.
layout(constant_id = 16) const uint mtl_threadgroup_length_0 = 1u; // [[threadgroup(0)]]: elements, set by the runtime
shared uint totals[mtl_threadgroup_length_0];

// Shared memory the SIMD-group functions exchange values through.
const uint mtl_subgroup_slots = (mtl_threadgroup_total + 8u - 1u) / 8u;
shared uint mtl_part_uint[mtl_subgroup_slots];

// SIMD-group functions for 8-wide subgroups (emulated: 32-lane groups across the device's subgroups).
// SIMD-groups of 32 threads by local index, as Metal numbers them.
uint mtl_thread_index_in_simdgroup() { return gl_LocalInvocationIndex & 31u; }
uint mtl_simdgroup_index_in_threadgroup() { return gl_LocalInvocationIndex >> 5u; }

uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

uint mtl_sg_reduce_sum(uint x, bool p)
{
    return subgroupAdd(p ? x : uint(0));
}

uint mtl_sg_xscan_sum(uint x, bool p)
{
    return subgroupExclusiveAdd(p ? x : uint(0));
}

uint mtl_simd_xscan_sum(uint x, bool p)
{
    uint part = mtl_sg_reduce_sum(x, p);
    uint own = mtl_sg_xscan_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_uint[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    uint a = uint(0);
    for (uint j = 0u; j < count; j++)
    {
        uint b = mtl_part_uint[first + j];
        a = (a + b);
    }
    uint b = own;
    return (a + b);
}

uint simd_prefix_exclusive_sum(uint x, bool mtl_p) { return mtl_simd_xscan_sum(x, mtl_p); }

uint mtl_simd_reduce_sum(uint x, bool p)
{
    uint part = mtl_sg_reduce_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_uint[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    uint a = uint(0);
    for (uint j = 0u; j < count; j++)
    {
        uint b = mtl_part_uint[first + j];
        a = (a + b);
    }
    return a;
}

uint simd_sum(uint x, bool mtl_p) { return mtl_simd_reduce_sum(x, mtl_p); }

void main()
{
    uint count = mtl_params.count;
    uint tid = gl_LocalInvocationIndex;
    uint threads = gl_WorkGroupSize.x;
    uint lane = mtl_thread_index_in_simdgroup();
    uint simd_group = mtl_simdgroup_index_in_threadgroup();
    uint simd_groups = ((mtl_threadgroup_total + 31u) / 32u);
    uint carry = 0u;
    {
        for (uint base = 0u; base < count; base += threads)
        {
            uint i = base + tid;
            uint v = i < count ? counts[i] : 0u;
            uint mtl_s1 = simd_prefix_exclusive_sum(v, true);
            uint prefix = mtl_s1;
            uint mtl_s2 = simd_sum(v, true);
            uint total = mtl_s2;
            if (lane == 0u)
            {
                totals[simd_group] = total;
            }
            memoryBarrierShared();
            barrier();
            uint before = 0u;
            uint chunk = 0u;
            for (uint k = 0u; k < simd_groups; k++)
            {
                uint t = totals[k];
                chunk += t;
                if (k < simd_group)
                {
                    before += t;
                }
            }
            if (i < count)
            {
                offsets[i] = carry + before + prefix;
            }
            carry += chunk;
            memoryBarrierShared();
            barrier();
        }
    }
}
