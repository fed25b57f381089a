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

// SIMD-group functions for 32-wide subgroups (native: Metal's 32 lanes are the device's subgroup).
uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane(); }
uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id(); }

uint mtl_sg_xscan_sum(uint x, bool p)
{
    return subgroupExclusiveAdd(p ? x : uint(0));
}

uint mtl_simd_xscan_sum(uint x, bool p) { return mtl_sg_xscan_sum(x, p); }

uint simd_prefix_exclusive_sum(uint x) { return mtl_simd_xscan_sum(x, true); }

uint mtl_sg_reduce_sum(uint x, bool p)
{
    return subgroupAdd(p ? x : uint(0));
}

uint mtl_simd_reduce_sum(uint x, bool p) { return mtl_sg_reduce_sum(x, p); }

uint simd_sum(uint x) { return mtl_simd_reduce_sum(x, true); }

void main()
{
    uint count = mtl_params.count;
    uint tid = gl_LocalInvocationIndex;
    uint threads = gl_WorkGroupSize.x;
    uint lane = mtl_thread_index_in_simdgroup();
    uint simd_group = mtl_simdgroup_index_in_threadgroup();
    uint simd_groups = ((mtl_threadgroup_total + 31u) / 32u);
    uint carry = 0u;
    for (uint base = 0u; base < count; base += threads)
    {
        uint i = base + tid;
        uint v = i < count ? counts[i] : 0u;
        uint prefix = simd_prefix_exclusive_sum(v);
        uint total = simd_sum(v);
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
