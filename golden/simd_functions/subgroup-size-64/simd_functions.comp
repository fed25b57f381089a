#version 450
// Translated by mtl2glsl 0.1.0 from simd_functions.metal, kernel simd_functions
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require

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

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// SIMD-group functions for 64-wide subgroups (clustered: 32-lane clusters of the device's subgroups).
uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

// 64-wide subgroups hold 2 SIMD-groups of 32 lanes each.
uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane() & 31u; }
uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id() * 2u + (mtl_sg_lane() >> 5u); }

float mtl_sg_creduce_sum(float x, bool p)
{
    return subgroupClusteredAdd(p ? x : float(0), 32u);
}

float mtl_simd_reduce_sum(float x, bool p) { return mtl_sg_creduce_sum(x, p); }

float simd_sum(float x) { return mtl_simd_reduce_sum(x, true); }

float mtl_sg_creduce_product(float x, bool p)
{
    return subgroupClusteredMul(p ? x : float(1), 32u);
}

float mtl_simd_reduce_product(float x, bool p) { return mtl_sg_creduce_product(x, p); }

float simd_product(float x) { return mtl_simd_reduce_product(x, true); }

float mtl_sg_creduce_min(float x, bool p)
{
    return subgroupClusteredMin(p ? x : float(uintBitsToFloat(0x7f800000u)), 32u);
}

float mtl_simd_reduce_min(float x, bool p) { return mtl_sg_creduce_min(x, p); }

float simd_min(float x) { return mtl_simd_reduce_min(x, true); }

int mtl_sg_creduce_max(int x, bool p)
{
    return subgroupClusteredMax(p ? x : int(int(0x80000000u)), 32u);
}

int mtl_simd_reduce_max(int x, bool p) { return mtl_sg_creduce_max(x, p); }

int simd_max(int x) { return mtl_simd_reduce_max(x, true); }

uint mtl_sg_creduce_and(uint x, bool p)
{
    return subgroupClusteredAnd(p ? x : uint(0xffffffffu), 32u);
}

uint mtl_simd_reduce_and(uint x, bool p) { return mtl_sg_creduce_and(x, p); }

uint simd_and(uint x) { return mtl_simd_reduce_and(x, true); }

uint mtl_sg_creduce_or(uint x, bool p)
{
    return subgroupClusteredOr(p ? x : uint(0), 32u);
}

uint mtl_simd_reduce_or(uint x, bool p) { return mtl_sg_creduce_or(x, p); }

uint simd_or(uint x) { return mtl_simd_reduce_or(x, true); }

uint mtl_sg_creduce_xor(uint x, bool p)
{
    return subgroupClusteredXor(p ? x : uint(0), 32u);
}

uint mtl_simd_reduce_xor(uint x, bool p) { return mtl_sg_creduce_xor(x, p); }

uint simd_xor(uint x) { return mtl_simd_reduce_xor(x, true); }

float mtl_sg_iscan_sum(float x, bool p)
{
    return subgroupInclusiveAdd(p ? x : float(0));
}

float mtl_simd_iscan_sum(float x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    float r = float(0);
    for (uint c = 0u; c < 2u; c++)
    {
        float s = mtl_sg_iscan_sum(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

float simd_prefix_inclusive_sum(float x) { return mtl_simd_iscan_sum(x, true); }

int mtl_sg_xscan_sum(int x, bool p)
{
    return subgroupExclusiveAdd(p ? x : int(0));
}

int mtl_simd_xscan_sum(int x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    int r = int(0);
    for (uint c = 0u; c < 2u; c++)
    {
        int s = mtl_sg_xscan_sum(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

int simd_prefix_exclusive_sum(int x) { return mtl_simd_xscan_sum(x, true); }

int mtl_sg_iscan_product(int x, bool p)
{
    return subgroupInclusiveMul(p ? x : int(1));
}

int mtl_simd_iscan_product(int x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    int r = int(1);
    for (uint c = 0u; c < 2u; c++)
    {
        int s = mtl_sg_iscan_product(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

int simd_prefix_inclusive_product(int x) { return mtl_simd_iscan_product(x, true); }

float mtl_sg_xscan_product(float x, bool p)
{
    return subgroupExclusiveMul(p ? x : float(1));
}

float mtl_simd_xscan_product(float x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    float r = float(1);
    for (uint c = 0u; c < 2u; c++)
    {
        float s = mtl_sg_xscan_product(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

float simd_prefix_exclusive_product(float x) { return mtl_simd_xscan_product(x, true); }

int mtl_sg_creduce_product(int x, bool p)
{
    return subgroupClusteredMul(p ? x : int(1), 32u);
}

int mtl_simd_reduce_product(int x, bool p) { return mtl_sg_creduce_product(x, p); }

int simd_product(int x) { return mtl_simd_reduce_product(x, true); }

uint mtl_sg_creduce_min(uint x, bool p)
{
    return subgroupClusteredMin(p ? x : uint(0xffffffffu), 32u);
}

uint mtl_simd_reduce_min(uint x, bool p) { return mtl_sg_creduce_min(x, p); }

uint simd_min(uint x) { return mtl_simd_reduce_min(x, true); }

float mtl_sg_creduce_max(float x, bool p)
{
    return subgroupClusteredMax(p ? x : float(uintBitsToFloat(0xff800000u)), 32u);
}

float mtl_simd_reduce_max(float x, bool p) { return mtl_sg_creduce_max(x, p); }

float simd_max(float x) { return mtl_simd_reduce_max(x, true); }

uint mtl_sg_iscan_sum(uint x, bool p)
{
    return subgroupInclusiveAdd(p ? x : uint(0));
}

uint mtl_simd_iscan_sum(uint x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    uint r = uint(0);
    for (uint c = 0u; c < 2u; c++)
    {
        uint s = mtl_sg_iscan_sum(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

uint simd_prefix_inclusive_sum(uint x) { return mtl_simd_iscan_sum(x, true); }

uint mtl_sg_xscan_sum(uint x, bool p)
{
    return subgroupExclusiveAdd(p ? x : uint(0));
}

uint mtl_simd_xscan_sum(uint x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    uint r = uint(0);
    for (uint c = 0u; c < 2u; c++)
    {
        uint s = mtl_sg_xscan_sum(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

uint simd_prefix_exclusive_sum(uint x) { return mtl_simd_xscan_sum(x, true); }

float mtl_sg_shuffle(float x, uint id) { return subgroupShuffle(x, id); }

float mtl_simd_get(float x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~31u) + lane); }

uvec4 mtl_sg_ballot(bool c) { return subgroupBallot(c); }

uint mtl_simd_ballot(bool c, bool p) { return mtl_sg_ballot(p && c)[mtl_sg_lane() >> 5u]; }

float simd_shuffle(float x, uint lane) { return mtl_simd_get(x, lane, true); }

float simd_shuffle_up(float x, uint d)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, l >= d ? l - d : l, true);
}

int mtl_sg_shuffle(int x, uint id) { return subgroupShuffle(x, id); }

int mtl_simd_get(int x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~31u) + lane); }

int simd_shuffle_down(int x, uint d)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, l + d < 32u ? l + d : l, true);
}

uint mtl_sg_shuffle(uint x, uint id) { return subgroupShuffle(x, id); }

uint mtl_simd_get(uint x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~31u) + lane); }

uint simd_shuffle_xor(uint x, uint d)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l ^ d) & 31u, true);
}

float simd_shuffle_rotate_up(float x, uint d)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l - d) & 31u, true);
}

int simd_shuffle_rotate_down(int x, uint d)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l + d) & 31u, true);
}

float simd_shuffle_and_fill_up(float x, float fill, uint d)
{
    uint m = 32u;
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    float a = mtl_simd_get(x, base + (i >= d ? i - d : i), true);
    float b = mtl_simd_get(fill, base + (i < d ? m - d + i : i), true);
    return i >= d ? a : b;
}

int simd_shuffle_and_fill_down(int x, int fill, uint d)
{
    uint m = 32u;
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    int a = mtl_simd_get(x, base + (i + d < m ? i + d : i), true);
    int b = mtl_simd_get(fill, base + (i + d >= m ? i + d - m : i), true);
    return i + d < m ? a : b;
}

uint simd_shuffle_and_fill_up(uint x, uint fill, uint d, uint m)
{
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    uint a = mtl_simd_get(x, base + (i >= d ? i - d : i), true);
    uint b = mtl_simd_get(fill, base + (i < d ? m - d + i : i), true);
    return i >= d ? a : b;
}

float simd_shuffle_and_fill_down(float x, float fill, uint d, uint m)
{
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    float a = mtl_simd_get(x, base + (i + d < m ? i + d : i), true);
    float b = mtl_simd_get(fill, base + (i + d >= m ? i + d - m : i), true);
    return i + d < m ? a : b;
}

float simd_broadcast(float x, uint lane) { return mtl_simd_get(x, lane, true); }

int simd_broadcast_first(int x) { return mtl_simd_get(x, uint(findLSB(mtl_simd_ballot(true, true))), true); }

uint64_t simd_ballot(bool c) { return uint64_t(mtl_simd_ballot(c, true)); }

bool simd_all(bool c) { return mtl_simd_ballot(c, true) == mtl_simd_ballot(true, true); }

bool simd_any(bool c) { return mtl_simd_ballot(c, true) != 0u; }

bool simd_is_first() { return mtl_thread_index_in_simdgroup() == uint(findLSB(mtl_simd_ballot(true, true))); }

uint64_t simd_active_threads_mask() { return uint64_t(mtl_simd_ballot(true, true)); }

vec4 mtl_sg_creduce_sum(vec4 x, bool p)
{
    return subgroupClusteredAdd(p ? x : vec4(0), 32u);
}

vec4 mtl_simd_reduce_sum(vec4 x, bool p) { return mtl_sg_creduce_sum(x, p); }

vec4 simd_sum(vec4 x) { return mtl_simd_reduce_sum(x, true); }

vec4 mtl_sg_creduce_max(vec4 x, bool p)
{
    return subgroupClusteredMax(p ? x : vec4(uintBitsToFloat(0xff800000u)), 32u);
}

vec4 mtl_simd_reduce_max(vec4 x, bool p) { return mtl_sg_creduce_max(x, p); }

vec4 simd_max(vec4 x) { return mtl_simd_reduce_max(x, true); }

ivec2 mtl_sg_creduce_max(ivec2 x, bool p)
{
    return subgroupClusteredMax(p ? x : ivec2(int(0x80000000u)), 32u);
}

ivec2 mtl_simd_reduce_max(ivec2 x, bool p) { return mtl_sg_creduce_max(x, p); }

ivec2 simd_max(ivec2 x) { return mtl_simd_reduce_max(x, true); }

uvec3 mtl_sg_shuffle(uvec3 x, uint id) { return subgroupShuffle(x, id); }

uvec3 mtl_simd_get(uvec3 x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~31u) + lane); }

uvec3 simd_shuffle(uvec3 x, uint lane) { return mtl_simd_get(x, lane, true); }

float16_t mtl_sg_creduce_sum(float16_t x, bool p)
{
    return subgroupClusteredAdd(p ? x : float16_t(0), 32u);
}

float16_t mtl_simd_reduce_sum(float16_t x, bool p) { return mtl_sg_creduce_sum(x, p); }

float16_t simd_sum(float16_t x) { return mtl_simd_reduce_sum(x, true); }

float16_t mtl_sg_iscan_sum(float16_t x, bool p)
{
    return subgroupInclusiveAdd(p ? x : float16_t(0));
}

float16_t mtl_simd_iscan_sum(float16_t x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    float16_t r = float16_t(0);
    for (uint c = 0u; c < 2u; c++)
    {
        float16_t s = mtl_sg_iscan_sum(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

float16_t simd_prefix_inclusive_sum(float16_t x) { return mtl_simd_iscan_sum(x, true); }

vec4 mtl_sg_xscan_sum(vec4 x, bool p)
{
    return subgroupExclusiveAdd(p ? x : vec4(0));
}

vec4 mtl_simd_xscan_sum(vec4 x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    vec4 r = vec4(0);
    for (uint c = 0u; c < 2u; c++)
    {
        vec4 s = mtl_sg_xscan_sum(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

vec4 simd_prefix_exclusive_sum(vec4 x) { return mtl_simd_xscan_sum(x, true); }

ivec2 mtl_sg_creduce_min(ivec2 x, bool p)
{
    return subgroupClusteredMin(p ? x : ivec2(0x7fffffff), 32u);
}

ivec2 mtl_simd_reduce_min(ivec2 x, bool p) { return mtl_sg_creduce_min(x, p); }

ivec2 simd_min(ivec2 x) { return mtl_simd_reduce_min(x, true); }

float mtl_sg_iscan_product(float x, bool p)
{
    return subgroupInclusiveMul(p ? x : float(1));
}

float mtl_simd_iscan_product(float x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    float r = float(1);
    for (uint c = 0u; c < 2u; c++)
    {
        float s = mtl_sg_iscan_product(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

float simd_prefix_inclusive_product(float x) { return mtl_simd_iscan_product(x, true); }

float simd_broadcast_first(float x) { return mtl_simd_get(x, uint(findLSB(mtl_simd_ballot(true, true))), true); }

int mtl_sg_iscan_sum(int x, bool p)
{
    return subgroupInclusiveAdd(p ? x : int(0));
}

int mtl_simd_iscan_sum(int x, bool p)
{
    uint cluster = mtl_sg_lane() >> 5u;
    int r = int(0);
    for (uint c = 0u; c < 2u; c++)
    {
        int s = mtl_sg_iscan_sum(x, p && c == cluster);
        if (c == cluster)
            r = s;
    }
    return r;
}

int simd_prefix_inclusive_sum(int x) { return mtl_simd_iscan_sum(x, true); }

uint mtl_quad_get(uint x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

uint mtl_quad_ballot(bool c, bool p)
{
    uvec4 b = mtl_sg_ballot(p && c);
    uint l = mtl_sg_lane() & ~3u;
    return (b[l >> 5u] >> (l & 31u)) & 15u;
}

bool quad_is_first() { return (gl_LocalInvocationIndex & 3u) == uint(findLSB(mtl_quad_ballot(true, true))); }

uint16_t quad_active_threads_mask() { return uint16_t(mtl_quad_ballot(true, true)); }

float mtl_quad_get(float x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

float mtl_quad_reduce_sum(float x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    float a = float(0);
    for (uint k = 0u; k < 4u; k++)
    {
        float b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = (a + b);
    }
    return a;
}

float quad_sum(float x) { return mtl_quad_reduce_sum(x, true); }

int mtl_quad_get(int x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

int quad_broadcast_first(int x) { return mtl_quad_get(x, uint(findLSB(mtl_quad_ballot(true, true))), true); }

float mtl_quad_reduce_product(float x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    float a = float(1);
    for (uint k = 0u; k < 4u; k++)
    {
        float b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = (a * b);
    }
    return a;
}

float quad_product(float x) { return mtl_quad_reduce_product(x, true); }

int mtl_quad_reduce_min(int x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    int a = int(0x7fffffff);
    for (uint k = 0u; k < 4u; k++)
    {
        int b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = min(a, b);
    }
    return a;
}

int quad_min(int x) { return mtl_quad_reduce_min(x, true); }

uint mtl_quad_reduce_max(uint x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    uint a = uint(0u);
    for (uint k = 0u; k < 4u; k++)
    {
        uint b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = max(a, b);
    }
    return a;
}

uint quad_max(uint x) { return mtl_quad_reduce_max(x, true); }

uint mtl_quad_reduce_and(uint x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    uint a = uint(0xffffffffu);
    for (uint k = 0u; k < 4u; k++)
    {
        uint b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = (a & b);
    }
    return a;
}

uint quad_and(uint x) { return mtl_quad_reduce_and(x, true); }

uint mtl_quad_reduce_or(uint x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    uint a = uint(0);
    for (uint k = 0u; k < 4u; k++)
    {
        uint b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = (a | b);
    }
    return a;
}

uint quad_or(uint x) { return mtl_quad_reduce_or(x, true); }

uint mtl_quad_reduce_xor(uint x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    uint a = uint(0);
    for (uint k = 0u; k < 4u; k++)
    {
        uint b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = (a ^ b);
    }
    return a;
}

uint quad_xor(uint x) { return mtl_quad_reduce_xor(x, true); }

float mtl_quad_iscan_sum(float x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    float a = float(0);
    for (uint k = 0u; k < 4u; k++)
    {
        float b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k <= lane)
            a = (a + b);
    }
    return a;
}

float quad_prefix_inclusive_sum(float x) { return mtl_quad_iscan_sum(x, true); }

int mtl_quad_xscan_sum(int x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    int a = int(0);
    for (uint k = 0u; k < 4u; k++)
    {
        int b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < lane)
            a = (a + b);
    }
    return a;
}

int quad_prefix_exclusive_sum(int x) { return mtl_quad_xscan_sum(x, true); }

int mtl_quad_iscan_product(int x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    int a = int(1);
    for (uint k = 0u; k < 4u; k++)
    {
        int b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k <= lane)
            a = (a * b);
    }
    return a;
}

int quad_prefix_inclusive_product(int x) { return mtl_quad_iscan_product(x, true); }

float mtl_quad_xscan_product(float x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    float a = float(1);
    for (uint k = 0u; k < 4u; k++)
    {
        float b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < lane)
            a = (a * b);
    }
    return a;
}

float quad_prefix_exclusive_product(float x) { return mtl_quad_xscan_product(x, true); }

float quad_shuffle(float x, uint lane) { return mtl_quad_get(x, lane, true); }

float quad_shuffle_up(float x, uint d)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, l >= d ? l - d : l, true);
}

int quad_shuffle_down(int x, uint d)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, l + d < 4u ? l + d : l, true);
}

uint quad_shuffle_xor(uint x, uint d)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, (l ^ d) & 3u, true);
}

float quad_shuffle_rotate_up(float x, uint d)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, (l - d) & 3u, true);
}

int quad_shuffle_rotate_down(int x, uint d)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, (l + d) & 3u, true);
}

float quad_shuffle_and_fill_up(float x, float fill, uint d)
{
    uint m = 4u;
    uint l = (gl_LocalInvocationIndex & 3u), i = l % m, base = l - i;
    float a = mtl_quad_get(x, base + (i >= d ? i - d : i), true);
    float b = mtl_quad_get(fill, base + (i < d ? m - d + i : i), true);
    return i >= d ? a : b;
}

int quad_shuffle_and_fill_down(int x, int fill, uint d)
{
    uint m = 4u;
    uint l = (gl_LocalInvocationIndex & 3u), i = l % m, base = l - i;
    int a = mtl_quad_get(x, base + (i + d < m ? i + d : i), true);
    int b = mtl_quad_get(fill, base + (i + d >= m ? i + d - m : i), true);
    return i + d < m ? a : b;
}

float quad_broadcast(float x, uint lane) { return mtl_quad_get(x, lane, true); }

uint quad_broadcast_first(uint x) { return mtl_quad_get(x, uint(findLSB(mtl_quad_ballot(true, true))), true); }

uint16_t quad_ballot(bool c) { return uint16_t(mtl_quad_ballot(c, true)); }

bool quad_all(bool c) { return mtl_quad_ballot(c, true) == mtl_quad_ballot(true, true); }

bool quad_any(bool c) { return mtl_quad_ballot(c, true) != 0u; }

vec4 mtl_sg_shuffle(vec4 x, uint id) { return subgroupShuffle(x, id); }

vec4 mtl_quad_get(vec4 x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

vec4 mtl_quad_reduce_sum(vec4 x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    vec4 a = vec4(0);
    for (uint k = 0u; k < 4u; k++)
    {
        vec4 b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = (a + b);
    }
    return a;
}

vec4 quad_sum(vec4 x) { return mtl_quad_reduce_sum(x, true); }

ivec2 mtl_sg_shuffle(ivec2 x, uint id) { return subgroupShuffle(x, id); }

ivec2 mtl_quad_get(ivec2 x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

ivec2 mtl_quad_reduce_max(ivec2 x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    ivec2 a = ivec2(int(0x80000000u));
    for (uint k = 0u; k < 4u; k++)
    {
        ivec2 b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = max(a, b);
    }
    return a;
}

ivec2 quad_max(ivec2 x) { return mtl_quad_reduce_max(x, true); }

float16_t mtl_sg_shuffle(float16_t x, uint id) { return subgroupShuffle(x, id); }

float16_t mtl_quad_get(float16_t x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

float16_t mtl_quad_reduce_sum(float16_t x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    float16_t a = float16_t(0);
    for (uint k = 0u; k < 4u; k++)
    {
        float16_t b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = (a + b);
    }
    return a;
}

float16_t quad_sum(float16_t x) { return mtl_quad_reduce_sum(x, true); }

uvec3 mtl_quad_get(uvec3 x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

uvec3 quad_shuffle(uvec3 x, uint lane) { return mtl_quad_get(x, lane, true); }

float mtl_quad_reduce_min(float x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    float a = float(uintBitsToFloat(0x7f800000u));
    for (uint k = 0u; k < 4u; k++)
    {
        float b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = min(a, b);
    }
    return a;
}

float quad_min(float x) { return mtl_quad_reduce_min(x, true); }

float mtl_quad_reduce_max(float x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    float a = float(uintBitsToFloat(0xff800000u));
    for (uint k = 0u; k < 4u; k++)
    {
        float b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < 4u)
            a = max(a, b);
    }
    return a;
}

float quad_max(float x) { return mtl_quad_reduce_max(x, true); }

uint mtl_quad_xscan_sum(uint x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    uint a = uint(0);
    for (uint k = 0u; k < 4u; k++)
    {
        uint b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k < lane)
            a = (a + b);
    }
    return a;
}

uint quad_prefix_exclusive_sum(uint x) { return mtl_quad_xscan_sum(x, true); }

f16vec2 mtl_sg_creduce_sum(f16vec2 x, bool p)
{
    return subgroupClusteredAdd(p ? x : f16vec2(0), 32u);
}

f16vec2 mtl_simd_reduce_sum(f16vec2 x, bool p) { return mtl_sg_creduce_sum(x, p); }

f16vec2 simd_sum(f16vec2 x) { return mtl_simd_reduce_sum(x, true); }

f16vec2 mtl_sg_shuffle(f16vec2 x, uint id) { return subgroupShuffle(x, id); }

f16vec2 mtl_simd_get(f16vec2 x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~31u) + lane); }

f16vec2 simd_shuffle_xor(f16vec2 x, uint d)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l ^ d) & 31u, true);
}

f16vec2 mtl_quad_get(f16vec2 x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

f16vec2 mtl_quad_iscan_sum(f16vec2 x, bool p)
{
    uint act = mtl_quad_ballot(true, p), lane = gl_LocalInvocationIndex & 3u;
    f16vec2 a = f16vec2(0);
    for (uint k = 0u; k < 4u; k++)
    {
        f16vec2 b = mtl_quad_get(x, k, p);
        if (((act >> k) & 1u) != 0u && k <= lane)
            a = (a + b);
    }
    return a;
}

f16vec2 quad_prefix_inclusive_sum(f16vec2 x) { return mtl_quad_iscan_sum(x, true); }

const uint COLUMNS = 99u;
precise const float MISSING = -12345.0;

void main()
{
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint threads = gl_WorkGroupSize.x;
    uint lane = mtl_thread_index_in_simdgroup();
    uint simd_group = mtl_simdgroup_index_in_threadgroup();
    uint quad_lane = (gl_LocalInvocationIndex & 3u);
    uint lanes = min(32u, threads - simd_group * 32u);
    uint quad_base = lane - quad_lane;
    uint o = gid * COLUMNS;
    precise float f = float(lane) * 0.5 - 3.0;
    int i = int((lane * 7u) % 11u) - 5;
    uint u = (lane * 37u) % 64u + 1u;
    precise float16_t h = float16_t(lane) * 0.25hf;
    precise float g = 1.0 + float(lane) / 64.0;
    int small = lane % 5u == 0u ? 2 : 1;
    precise vec4 f4 = vec4(f, -f, f * 2.0, g);
    ivec2 i2 = ivec2(i, -i);
    uvec3 u3 = uvec3(u, u + 1u, lane);
    precise f16vec2 h2 = f16vec2(h, -h * 2.0hf);
    out_[o + 0u] = simd_sum(f);
    out_[o + 1u] = simd_product(g);
    out_[o + 2u] = simd_min(f);
    out_[o + 3u] = float(simd_max(i));
    out_[o + 4u] = float(simd_and(u + 64u));
    out_[o + 5u] = float(simd_or(u));
    out_[o + 6u] = float(simd_xor(u));
    out_[o + 7u] = simd_prefix_inclusive_sum(f);
    out_[o + 8u] = float(simd_prefix_exclusive_sum(i));
    out_[o + 9u] = float(simd_prefix_inclusive_product(small));
    out_[o + 10u] = simd_prefix_exclusive_product(g);
    out_[o + 11u] = float(simd_product(small));
    out_[o + 12u] = float(simd_min(u));
    out_[o + 13u] = simd_max(f);
    out_[o + 14u] = float(simd_prefix_inclusive_sum(u));
    out_[o + 15u] = float(simd_prefix_exclusive_sum(u));
    uint src = (lane * 5u + 3u) % lanes;
    out_[o + 16u] = simd_shuffle(f, src);
    out_[o + 17u] = simd_shuffle_up(f, 3u);
    precise float down = float(simd_shuffle_down(i, 5u));
    out_[o + 18u] = lane + 5u < lanes || lanes == 32u ? down : MISSING;
    precise float x6 = float(simd_shuffle_xor(u, 6u));
    out_[o + 19u] = (lane ^ 6u) < lanes ? x6 : MISSING;
    precise float rot_up = simd_shuffle_rotate_up(f, 4u);
    out_[o + 20u] = ((lane - 4u) & 31u) < lanes ? rot_up : MISSING;
    precise float rot_down = float(simd_shuffle_rotate_down(i, 9u));
    out_[o + 21u] = ((lane + 9u) & 31u) < lanes ? rot_down : MISSING;
    precise float fill_up = simd_shuffle_and_fill_up(f, f + 1e+02, 3u);
    out_[o + 22u] = lane >= 3u || 29u + lane < lanes ? fill_up : MISSING;
    precise float fill_down = float(simd_shuffle_and_fill_down(i, i + 1000, 7u));
    out_[o + 23u] = lane + 7u < lanes || lane + 7u - 32u < lanes ? fill_down : MISSING;
    precise float fill_up8 = float(simd_shuffle_and_fill_up(u, u + 500u, 2u, 8u));
    uint up8_src = (lane % 8u) >= 2u ? lane - 2u : lane - lane % 8u + 6u + lane % 8u;
    out_[o + 24u] = up8_src < lanes ? fill_up8 : MISSING;
    precise float fill_down16 = simd_shuffle_and_fill_down(f, -f, 3u, 16u);
    uint down16_src = (lane % 16u) + 3u < 16u ? lane + 3u : lane + 3u - 16u;
    out_[o + 25u] = down16_src < lanes ? fill_down16 : MISSING;
    precise float b2 = simd_broadcast(f, 2u);
    out_[o + 26u] = lanes > 2u ? b2 : MISSING;
    out_[o + 27u] = float(simd_broadcast_first(i));
    uint ballot = uint(simd_ballot(lane % 3u == 1u));
    out_[o + 28u] = float(ballot & 65535u);
    out_[o + 29u] = float(ballot >> 16);
    out_[o + 30u] = simd_all(f > -1e+01) ? 1.0 : 0.0;
    out_[o + 31u] = simd_all(lane < 20u) ? 1.0 : 0.0;
    out_[o + 32u] = simd_any(lane == 7u) ? 1.0 : 0.0;
    out_[o + 33u] = simd_is_first() ? 1.0 : 0.0;
    uint active_ = uint(simd_active_threads_mask());
    out_[o + 34u] = float(active_ & 65535u);
    out_[o + 35u] = float(active_ >> 16);
    out_[o + 36u] = simd_sum(f4).y;
    out_[o + 37u] = simd_max(f4).z;
    out_[o + 38u] = float(simd_max(i2).y);
    precise float sh3 = float(simd_shuffle(u3, lane ^ 1u).z);
    out_[o + 39u] = (lane ^ 1u) < lanes ? sh3 : MISSING;
    out_[o + 40u] = float(simd_sum(h));
    out_[o + 41u] = float(simd_prefix_inclusive_sum(h));
    out_[o + 42u] = simd_prefix_exclusive_sum(f4).w;
    out_[o + 43u] = float(simd_min(i2).x);
    precise float d_sum = MISSING;
    precise float d_max = MISSING;
    precise float d_xsum = MISSING;
    precise float d_iprod = MISSING;
    precise float d_first = MISSING;
    precise float d_is_first = MISSING;
    precise float d_active_lo = MISSING;
    precise float d_active_hi = MISSING;
    precise float d_ballot_lo = MISSING;
    precise float d_ballot_hi = MISSING;
    precise float d_all = MISSING;
    precise float d_any = MISSING;
    precise float d_and = MISSING;
    precise float d_isum = MISSING;
    precise float d_quad_first = MISSING;
    precise float d_quad_active = MISSING;
    precise float d_quad_sum = MISSING;
    precise float d_quad_bfirst = MISSING;
    if (lane % 3u != 0u)
    {
        d_sum = simd_sum(f);
        d_max = float(simd_max(i));
        d_xsum = float(simd_prefix_exclusive_sum(u));
        d_iprod = simd_prefix_inclusive_product(g);
        d_first = simd_broadcast_first(f);
        d_is_first = simd_is_first() ? 1.0 : 0.0;
        uint a = uint(simd_active_threads_mask());
        d_active_lo = float(a & 65535u);
        d_active_hi = float(a >> 16);
        uint b = uint(simd_ballot(lane > 10u));
        d_ballot_lo = float(b & 65535u);
        d_ballot_hi = float(b >> 16);
        d_all = simd_all(lane % 3u != 0u) ? 1.0 : 0.0;
        d_any = simd_any(lane == 4u) ? 1.0 : 0.0;
        d_and = float(simd_and(u | 1u));
        d_isum = float(simd_prefix_inclusive_sum(i));
        d_quad_first = quad_is_first() ? 1.0 : 0.0;
        d_quad_active = float(uint(quad_active_threads_mask()));
        d_quad_sum = quad_sum(f);
        d_quad_bfirst = float(quad_broadcast_first(i));
    }
    out_[o + 44u] = d_sum;
    out_[o + 45u] = d_max;
    out_[o + 46u] = d_xsum;
    out_[o + 47u] = d_iprod;
    out_[o + 48u] = d_first;
    out_[o + 49u] = d_is_first;
    out_[o + 50u] = d_active_lo;
    out_[o + 51u] = d_active_hi;
    out_[o + 52u] = d_ballot_lo;
    out_[o + 53u] = d_ballot_hi;
    out_[o + 54u] = d_all;
    out_[o + 55u] = d_any;
    out_[o + 56u] = d_and;
    out_[o + 57u] = d_isum;
    out_[o + 58u] = d_quad_first;
    out_[o + 59u] = d_quad_active;
    out_[o + 60u] = d_quad_sum;
    out_[o + 61u] = d_quad_bfirst;
    uint quad_lanes = min(4u, lanes - quad_base);
    out_[o + 62u] = quad_sum(f);
    out_[o + 63u] = quad_product(g);
    out_[o + 64u] = float(quad_min(i));
    out_[o + 65u] = float(quad_max(u));
    out_[o + 66u] = float(quad_and(u + 64u));
    out_[o + 67u] = float(quad_or(u));
    out_[o + 68u] = float(quad_xor(u));
    out_[o + 69u] = quad_prefix_inclusive_sum(f);
    out_[o + 70u] = float(quad_prefix_exclusive_sum(i));
    out_[o + 71u] = float(quad_prefix_inclusive_product(small));
    out_[o + 72u] = quad_prefix_exclusive_product(g);
    precise float q_sh = quad_shuffle(f, 3u - quad_lane);
    out_[o + 73u] = 3u - quad_lane < quad_lanes ? q_sh : MISSING;
    out_[o + 74u] = quad_shuffle_up(f, 1u);
    precise float q_down = float(quad_shuffle_down(i, 2u));
    out_[o + 75u] = quad_lane + 2u < quad_lanes || quad_lanes == 4u ? q_down : MISSING;
    precise float q_xor = float(quad_shuffle_xor(u, 1u));
    out_[o + 76u] = (quad_lane ^ 1u) < quad_lanes ? q_xor : MISSING;
    precise float q_rot_up = quad_shuffle_rotate_up(f, 1u);
    out_[o + 77u] = ((quad_lane + 3u) & 3u) < quad_lanes ? q_rot_up : MISSING;
    precise float q_rot_down = float(quad_shuffle_rotate_down(i, 3u));
    out_[o + 78u] = ((quad_lane + 3u) & 3u) < quad_lanes ? q_rot_down : MISSING;
    precise float q_fill_up = quad_shuffle_and_fill_up(f, -f, 1u);
    out_[o + 79u] = quad_lane >= 1u || 3u < quad_lanes ? q_fill_up : MISSING;
    precise float q_fill_down = float(quad_shuffle_and_fill_down(i, i + 100, 2u));
    out_[o + 80u] = quad_lane + 2u < quad_lanes || quad_lane + 2u - 4u < quad_lanes ? q_fill_down : MISSING;
    out_[o + 81u] = quad_broadcast(f, 0u);
    out_[o + 82u] = float(quad_broadcast_first(u));
    out_[o + 83u] = float(uint(quad_ballot(lane % 2u == 0u)));
    out_[o + 84u] = quad_all(f > 0.0) ? 1.0 : 0.0;
    out_[o + 85u] = quad_any(lane == 5u) ? 1.0 : 0.0;
    out_[o + 86u] = quad_is_first() ? 1.0 : 0.0;
    out_[o + 87u] = float(uint(quad_active_threads_mask()));
    out_[o + 88u] = quad_sum(f4).x;
    out_[o + 89u] = float(quad_max(i2).y);
    out_[o + 90u] = float(quad_sum(h));
    precise float q_sh3 = float(quad_shuffle(u3, 0u).y);
    out_[o + 91u] = q_sh3;
    out_[o + 92u] = quad_min(f);
    out_[o + 93u] = quad_max(f);
    out_[o + 94u] = float(quad_prefix_exclusive_sum(u));
    out_[o + 95u] = float(lanes);
    out_[o + 96u] = float(simd_sum(h2).y);
    precise float hx = float(simd_shuffle_xor(h2, 3u).x);
    out_[o + 97u] = (lane ^ 3u) < lanes ? hx : MISSING;
    out_[o + 98u] = float(quad_prefix_inclusive_sum(h2).y);
}
