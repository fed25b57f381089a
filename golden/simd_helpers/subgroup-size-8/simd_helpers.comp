#version 450
// Translated by mtl2glsl 0.1.0 from simd_helpers.metal, kernel simd_helpers
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require

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

// Whether C holds in any thread of the threadgroup: loops around SIMD-group functions run in every thread
// while one of them still loops.
shared uint mtl_any_flag;
bool mtl_workgroup_any(bool c)
{
    barrier();
    if (gl_LocalInvocationIndex == 0u)
        mtl_any_flag = 0u;
    barrier();
    if (c)
        atomicOr(mtl_any_flag, 1u);
    barrier();
    return mtl_any_flag != 0u;
}

// Shared memory the SIMD-group functions exchange values through.
const uint mtl_subgroup_slots = (mtl_threadgroup_total + 8u - 1u) / 8u;
shared float mtl_part_float[mtl_subgroup_slots];
shared uint mtl_xchg_uint[mtl_threadgroup_total];
shared uint mtl_part_uint[mtl_subgroup_slots];

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

uint mtl_simd_get(uint x, uint lane, bool p)
{
    barrier();
    mtl_xchg_uint[gl_LocalInvocationIndex] = x;
    barrier();
    uint src = (gl_LocalInvocationIndex & ~31u) + lane;
    return src < mtl_threadgroup_total ? mtl_xchg_uint[src] : x;
}

uvec4 mtl_sg_ballot(bool c) { return subgroupBallot(c); }

uint mtl_simd_ballot(bool c, bool p)
{
    uint word = mtl_sg_ballot(p && c).x;
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_uint[mtl_sg_id()] = word;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u, mask = 0u;
    for (uint j = 0u; j < 4u && first + j < mtl_subgroup_slots; j++)
        mask |= mtl_part_uint[first + j] << (j * 8u);
    return mask;
}

uint64_t simd_ballot(bool c, bool mtl_p) { return uint64_t(mtl_simd_ballot(c, mtl_p)); }

float mtl_sg_reduce_max(float x, bool p)
{
    return subgroupMax(p ? x : float(uintBitsToFloat(0xff800000u)));
}

float mtl_simd_reduce_max(float x, bool p)
{
    float part = mtl_sg_reduce_max(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    float a = float(uintBitsToFloat(0xff800000u));
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = max(a, b);
    }
    return a;
}

float simd_max(float x, bool mtl_p) { return mtl_simd_reduce_max(x, mtl_p); }

uint mtl_popcount(uint x) { return uint(bitCount(x)); }

precise float masked_total(float v, bool take, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    float mtl_ret;
    if (mtl_live)
    {
        if (!take)
        {
            mtl_ret = 0.0;
            mtl_live = false;
        }
    }
    float mtl_s1 = simd_sum(v, mtl_live);
    if (mtl_live)
    {
        mtl_ret = mtl_s1;
        mtl_live = false;
    }
    return mtl_ret;
}

uint positive_lanes(float v, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    uint mtl_ret;
    uint64_t mtl_s2 = simd_ballot(v > 0.0, mtl_live);
    if (mtl_live)
    {
        mtl_ret = mtl_popcount(uint(mtl_s2));
        mtl_live = false;
    }
    return mtl_ret;
}

void add_max(inout float acc, float v, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    float mtl_s3 = simd_max(v, mtl_live);
    if (mtl_live)
    {
        acc += mtl_s3 + 1.0;
    }
}

void main()
{
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lane = mtl_thread_index_in_simdgroup();
    precise float v = x[gid];
    float mtl_s4 = masked_total(v, lane % 2u == 0u, true);
    precise float a = mtl_s4;
    precise float b = -1.0;
    bool mtl_c5 = lane < 20u;
    {
        float mtl_s6 = masked_total(v, true, mtl_c5);
        if (mtl_c5)
        {
            b = mtl_s6;
        }
    }
    uint c = 0u;
    {
        uint k = 0u;
        bool mtl_l7 = true;
        while (true)
        {
            mtl_l7 = mtl_l7 && k < lane % 4u;
            if (!mtl_workgroup_any(mtl_l7))
                break;
            uint mtl_s8 = positive_lanes(v - float(k), mtl_l7);
            if (mtl_l7)
            {
                c += mtl_s8;
            }
            if (mtl_l7)
                k++;
        }
    }
    float d = 0.0;
    bool mtl_c9 = lane >= 8u;
    {
        add_max(d, v, mtl_c9);
    }
    out_[gid * 4u + 0u] = a;
    out_[gid * 4u + 1u] = b;
    out_[gid * 4u + 2u] = float(c);
    out_[gid * 4u + 3u] = d;
}
