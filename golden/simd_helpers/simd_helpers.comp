#version 450
// Translated by mtl2glsl 0.1.0 from simd_helpers.metal, kernel simd_helpers
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require

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

// SIMD-group functions for 32-wide subgroups (native: Metal's 32 lanes are the device's subgroup).
uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane(); }
uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id(); }

float mtl_sg_reduce_sum(float x, bool p)
{
    return subgroupAdd(p ? x : float(0));
}

float mtl_simd_reduce_sum(float x, bool p) { return mtl_sg_reduce_sum(x, p); }

float simd_sum(float x) { return mtl_simd_reduce_sum(x, true); }

uint mtl_sg_shuffle(uint x, uint id) { return subgroupShuffle(x, id); }

uint mtl_simd_get(uint x, uint lane, bool p) { return mtl_sg_shuffle(x, lane); }

uvec4 mtl_sg_ballot(bool c) { return subgroupBallot(c); }

uint mtl_simd_ballot(bool c, bool p) { return mtl_sg_ballot(p && c).x; }

uint64_t simd_ballot(bool c) { return uint64_t(mtl_simd_ballot(c, true)); }

float mtl_sg_reduce_max(float x, bool p)
{
    return subgroupMax(p ? x : float(uintBitsToFloat(0xff800000u)));
}

float mtl_simd_reduce_max(float x, bool p) { return mtl_sg_reduce_max(x, p); }

float simd_max(float x) { return mtl_simd_reduce_max(x, true); }

uint mtl_popcount(uint x) { return uint(bitCount(x)); }

precise float masked_total(float v, bool take)
{
    if (!take)
    {
        return 0.0;
    }
    return simd_sum(v);
}

uint positive_lanes(float v)
{
    return mtl_popcount(uint(simd_ballot(v > 0.0)));
}

void add_max(inout float acc, float v)
{
    acc += simd_max(v) + 1.0;
}

void main()
{
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lane = mtl_thread_index_in_simdgroup();
    precise float v = x[gid];
    precise float a = masked_total(v, lane % 2u == 0u);
    precise float b = -1.0;
    if (lane < 20u)
    {
        b = masked_total(v, true);
    }
    uint c = 0u;
    for (uint k = 0u; k < lane % 4u; k++)
    {
        c += positive_lanes(v - float(k));
    }
    float d = 0.0;
    if (lane >= 8u)
    {
        add_max(d, v);
    }
    out_[gid * 4u + 0u] = a;
    out_[gid * 4u + 1u] = b;
    out_[gid * 4u + 2u] = float(c);
    out_[gid * 4u + 3u] = d;
}
