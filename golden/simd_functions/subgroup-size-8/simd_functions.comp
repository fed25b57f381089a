#version 450
// Translated by mtl2glsl 0.1.0 from simd_functions.metal, kernel simd_functions
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
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

// Shared memory the SIMD-group functions exchange values through.
const uint mtl_subgroup_slots = (mtl_threadgroup_total + 8u - 1u) / 8u;
shared float mtl_part_float[mtl_subgroup_slots];
shared int mtl_part_int[mtl_subgroup_slots];
shared uint mtl_part_uint[mtl_subgroup_slots];
shared float mtl_xchg_float[mtl_threadgroup_total];
shared int mtl_xchg_int[mtl_threadgroup_total];
shared uint mtl_xchg_uint[mtl_threadgroup_total];
shared vec4 mtl_part_vec4[mtl_subgroup_slots];
shared ivec2 mtl_part_ivec2[mtl_subgroup_slots];
shared uvec3 mtl_xchg_uvec3[mtl_threadgroup_total];
shared float16_t mtl_part_float16[mtl_subgroup_slots];
shared f16vec2 mtl_part_f16vec2[mtl_subgroup_slots];
shared f16vec2 mtl_xchg_f16vec2[mtl_threadgroup_total];

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

float mtl_sg_reduce_product(float x, bool p)
{
    return subgroupMul(p ? x : float(1));
}

float mtl_simd_reduce_product(float x, bool p)
{
    float part = mtl_sg_reduce_product(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    float a = float(1);
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = (a * b);
    }
    return a;
}

float simd_product(float x, bool mtl_p) { return mtl_simd_reduce_product(x, mtl_p); }

float mtl_sg_reduce_min(float x, bool p)
{
    return subgroupMin(p ? x : float(uintBitsToFloat(0x7f800000u)));
}

float mtl_simd_reduce_min(float x, bool p)
{
    float part = mtl_sg_reduce_min(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    float a = float(uintBitsToFloat(0x7f800000u));
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = min(a, b);
    }
    return a;
}

float simd_min(float x, bool mtl_p) { return mtl_simd_reduce_min(x, mtl_p); }

int mtl_sg_reduce_max(int x, bool p)
{
    return subgroupMax(p ? x : int(int(0x80000000u)));
}

int mtl_simd_reduce_max(int x, bool p)
{
    int part = mtl_sg_reduce_max(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_int[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    int a = int(int(0x80000000u));
    for (uint j = 0u; j < count; j++)
    {
        int b = mtl_part_int[first + j];
        a = max(a, b);
    }
    return a;
}

int simd_max(int x, bool mtl_p) { return mtl_simd_reduce_max(x, mtl_p); }

uint mtl_sg_reduce_and(uint x, bool p)
{
    return subgroupAnd(p ? x : uint(0xffffffffu));
}

uint mtl_simd_reduce_and(uint x, bool p)
{
    uint part = mtl_sg_reduce_and(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_uint[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    uint a = uint(0xffffffffu);
    for (uint j = 0u; j < count; j++)
    {
        uint b = mtl_part_uint[first + j];
        a = (a & b);
    }
    return a;
}

uint simd_and(uint x, bool mtl_p) { return mtl_simd_reduce_and(x, mtl_p); }

uint mtl_sg_reduce_or(uint x, bool p)
{
    return subgroupOr(p ? x : uint(0));
}

uint mtl_simd_reduce_or(uint x, bool p)
{
    uint part = mtl_sg_reduce_or(x, p);
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
        a = (a | b);
    }
    return a;
}

uint simd_or(uint x, bool mtl_p) { return mtl_simd_reduce_or(x, mtl_p); }

uint mtl_sg_reduce_xor(uint x, bool p)
{
    return subgroupXor(p ? x : uint(0));
}

uint mtl_simd_reduce_xor(uint x, bool p)
{
    uint part = mtl_sg_reduce_xor(x, p);
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
        a = (a ^ b);
    }
    return a;
}

uint simd_xor(uint x, bool mtl_p) { return mtl_simd_reduce_xor(x, mtl_p); }

float mtl_sg_iscan_sum(float x, bool p)
{
    return subgroupInclusiveAdd(p ? x : float(0));
}

float mtl_simd_iscan_sum(float x, bool p)
{
    float part = mtl_sg_reduce_sum(x, p);
    float own = mtl_sg_iscan_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    float a = float(0);
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = (a + b);
    }
    float b = own;
    return (a + b);
}

float simd_prefix_inclusive_sum(float x, bool mtl_p) { return mtl_simd_iscan_sum(x, mtl_p); }

int mtl_sg_reduce_sum(int x, bool p)
{
    return subgroupAdd(p ? x : int(0));
}

int mtl_sg_xscan_sum(int x, bool p)
{
    return subgroupExclusiveAdd(p ? x : int(0));
}

int mtl_simd_xscan_sum(int x, bool p)
{
    int part = mtl_sg_reduce_sum(x, p);
    int own = mtl_sg_xscan_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_int[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    int a = int(0);
    for (uint j = 0u; j < count; j++)
    {
        int b = mtl_part_int[first + j];
        a = (a + b);
    }
    int b = own;
    return (a + b);
}

int simd_prefix_exclusive_sum(int x, bool mtl_p) { return mtl_simd_xscan_sum(x, mtl_p); }

int mtl_sg_reduce_product(int x, bool p)
{
    return subgroupMul(p ? x : int(1));
}

int mtl_sg_iscan_product(int x, bool p)
{
    return subgroupInclusiveMul(p ? x : int(1));
}

int mtl_simd_iscan_product(int x, bool p)
{
    int part = mtl_sg_reduce_product(x, p);
    int own = mtl_sg_iscan_product(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_int[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    int a = int(1);
    for (uint j = 0u; j < count; j++)
    {
        int b = mtl_part_int[first + j];
        a = (a * b);
    }
    int b = own;
    return (a * b);
}

int simd_prefix_inclusive_product(int x, bool mtl_p) { return mtl_simd_iscan_product(x, mtl_p); }

float mtl_sg_xscan_product(float x, bool p)
{
    return subgroupExclusiveMul(p ? x : float(1));
}

float mtl_simd_xscan_product(float x, bool p)
{
    float part = mtl_sg_reduce_product(x, p);
    float own = mtl_sg_xscan_product(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    float a = float(1);
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = (a * b);
    }
    float b = own;
    return (a * b);
}

float simd_prefix_exclusive_product(float x, bool mtl_p) { return mtl_simd_xscan_product(x, mtl_p); }

int mtl_simd_reduce_product(int x, bool p)
{
    int part = mtl_sg_reduce_product(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_int[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    int a = int(1);
    for (uint j = 0u; j < count; j++)
    {
        int b = mtl_part_int[first + j];
        a = (a * b);
    }
    return a;
}

int simd_product(int x, bool mtl_p) { return mtl_simd_reduce_product(x, mtl_p); }

uint mtl_sg_reduce_min(uint x, bool p)
{
    return subgroupMin(p ? x : uint(0xffffffffu));
}

uint mtl_simd_reduce_min(uint x, bool p)
{
    uint part = mtl_sg_reduce_min(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_uint[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    uint a = uint(0xffffffffu);
    for (uint j = 0u; j < count; j++)
    {
        uint b = mtl_part_uint[first + j];
        a = min(a, b);
    }
    return a;
}

uint simd_min(uint x, bool mtl_p) { return mtl_simd_reduce_min(x, mtl_p); }

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

uint mtl_sg_reduce_sum(uint x, bool p)
{
    return subgroupAdd(p ? x : uint(0));
}

uint mtl_sg_iscan_sum(uint x, bool p)
{
    return subgroupInclusiveAdd(p ? x : uint(0));
}

uint mtl_simd_iscan_sum(uint x, bool p)
{
    uint part = mtl_sg_reduce_sum(x, p);
    uint own = mtl_sg_iscan_sum(x, p);
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

uint simd_prefix_inclusive_sum(uint x, bool mtl_p) { return mtl_simd_iscan_sum(x, mtl_p); }

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

float mtl_simd_get(float x, uint lane, bool p)
{
    barrier();
    mtl_xchg_float[gl_LocalInvocationIndex] = x;
    barrier();
    uint src = (gl_LocalInvocationIndex & ~31u) + lane;
    return src < mtl_threadgroup_total ? mtl_xchg_float[src] : x;
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

float simd_shuffle(float x, uint lane, bool mtl_p) { return mtl_simd_get(x, lane, mtl_p); }

float simd_shuffle_up(float x, uint d, bool mtl_p)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, l >= d ? l - d : l, mtl_p);
}

int mtl_simd_get(int x, uint lane, bool p)
{
    barrier();
    mtl_xchg_int[gl_LocalInvocationIndex] = x;
    barrier();
    uint src = (gl_LocalInvocationIndex & ~31u) + lane;
    return src < mtl_threadgroup_total ? mtl_xchg_int[src] : x;
}

int simd_shuffle_down(int x, uint d, bool mtl_p)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, l + d < 32u ? l + d : l, mtl_p);
}

uint mtl_simd_get(uint x, uint lane, bool p)
{
    barrier();
    mtl_xchg_uint[gl_LocalInvocationIndex] = x;
    barrier();
    uint src = (gl_LocalInvocationIndex & ~31u) + lane;
    return src < mtl_threadgroup_total ? mtl_xchg_uint[src] : x;
}

uint simd_shuffle_xor(uint x, uint d, bool mtl_p)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l ^ d) & 31u, mtl_p);
}

float simd_shuffle_rotate_up(float x, uint d, bool mtl_p)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l - d) & 31u, mtl_p);
}

int simd_shuffle_rotate_down(int x, uint d, bool mtl_p)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l + d) & 31u, mtl_p);
}

float simd_shuffle_and_fill_up(float x, float fill, uint d, bool mtl_p)
{
    uint m = 32u;
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    float a = mtl_simd_get(x, base + (i >= d ? i - d : i), mtl_p);
    float b = mtl_simd_get(fill, base + (i < d ? m - d + i : i), mtl_p);
    return i >= d ? a : b;
}

int simd_shuffle_and_fill_down(int x, int fill, uint d, bool mtl_p)
{
    uint m = 32u;
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    int a = mtl_simd_get(x, base + (i + d < m ? i + d : i), mtl_p);
    int b = mtl_simd_get(fill, base + (i + d >= m ? i + d - m : i), mtl_p);
    return i + d < m ? a : b;
}

uint simd_shuffle_and_fill_up(uint x, uint fill, uint d, uint m, bool mtl_p)
{
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    uint a = mtl_simd_get(x, base + (i >= d ? i - d : i), mtl_p);
    uint b = mtl_simd_get(fill, base + (i < d ? m - d + i : i), mtl_p);
    return i >= d ? a : b;
}

float simd_shuffle_and_fill_down(float x, float fill, uint d, uint m, bool mtl_p)
{
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    float a = mtl_simd_get(x, base + (i + d < m ? i + d : i), mtl_p);
    float b = mtl_simd_get(fill, base + (i + d >= m ? i + d - m : i), mtl_p);
    return i + d < m ? a : b;
}

float simd_broadcast(float x, uint lane, bool mtl_p) { return mtl_simd_get(x, lane, mtl_p); }

int simd_broadcast_first(int x, bool mtl_p) { return mtl_simd_get(x, uint(findLSB(mtl_simd_ballot(true, mtl_p))), mtl_p); }

uint64_t simd_ballot(bool c, bool mtl_p) { return uint64_t(mtl_simd_ballot(c, mtl_p)); }

bool simd_all(bool c, bool mtl_p) { return mtl_simd_ballot(c, mtl_p) == mtl_simd_ballot(true, mtl_p); }

bool simd_any(bool c, bool mtl_p) { return mtl_simd_ballot(c, mtl_p) != 0u; }

bool simd_is_first(bool mtl_p) { return mtl_thread_index_in_simdgroup() == uint(findLSB(mtl_simd_ballot(true, mtl_p))); }

uint64_t simd_active_threads_mask(bool mtl_p) { return uint64_t(mtl_simd_ballot(true, mtl_p)); }

vec4 mtl_sg_reduce_sum(vec4 x, bool p)
{
    return subgroupAdd(p ? x : vec4(0));
}

vec4 mtl_simd_reduce_sum(vec4 x, bool p)
{
    vec4 part = mtl_sg_reduce_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_vec4[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    vec4 a = vec4(0);
    for (uint j = 0u; j < count; j++)
    {
        vec4 b = mtl_part_vec4[first + j];
        a = (a + b);
    }
    return a;
}

vec4 simd_sum(vec4 x, bool mtl_p) { return mtl_simd_reduce_sum(x, mtl_p); }

vec4 mtl_sg_reduce_max(vec4 x, bool p)
{
    return subgroupMax(p ? x : vec4(uintBitsToFloat(0xff800000u)));
}

vec4 mtl_simd_reduce_max(vec4 x, bool p)
{
    vec4 part = mtl_sg_reduce_max(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_vec4[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    vec4 a = vec4(uintBitsToFloat(0xff800000u));
    for (uint j = 0u; j < count; j++)
    {
        vec4 b = mtl_part_vec4[first + j];
        a = max(a, b);
    }
    return a;
}

vec4 simd_max(vec4 x, bool mtl_p) { return mtl_simd_reduce_max(x, mtl_p); }

ivec2 mtl_sg_reduce_max(ivec2 x, bool p)
{
    return subgroupMax(p ? x : ivec2(int(0x80000000u)));
}

ivec2 mtl_simd_reduce_max(ivec2 x, bool p)
{
    ivec2 part = mtl_sg_reduce_max(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_ivec2[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    ivec2 a = ivec2(int(0x80000000u));
    for (uint j = 0u; j < count; j++)
    {
        ivec2 b = mtl_part_ivec2[first + j];
        a = max(a, b);
    }
    return a;
}

ivec2 simd_max(ivec2 x, bool mtl_p) { return mtl_simd_reduce_max(x, mtl_p); }

uvec3 mtl_simd_get(uvec3 x, uint lane, bool p)
{
    barrier();
    mtl_xchg_uvec3[gl_LocalInvocationIndex] = x;
    barrier();
    uint src = (gl_LocalInvocationIndex & ~31u) + lane;
    return src < mtl_threadgroup_total ? mtl_xchg_uvec3[src] : x;
}

uvec3 simd_shuffle(uvec3 x, uint lane, bool mtl_p) { return mtl_simd_get(x, lane, mtl_p); }

float16_t mtl_sg_reduce_sum(float16_t x, bool p)
{
    return subgroupAdd(p ? x : float16_t(0));
}

float16_t mtl_simd_reduce_sum(float16_t x, bool p)
{
    float16_t part = mtl_sg_reduce_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float16[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    float16_t a = float16_t(0);
    for (uint j = 0u; j < count; j++)
    {
        float16_t b = mtl_part_float16[first + j];
        a = (a + b);
    }
    return a;
}

float16_t simd_sum(float16_t x, bool mtl_p) { return mtl_simd_reduce_sum(x, mtl_p); }

float16_t mtl_sg_iscan_sum(float16_t x, bool p)
{
    return subgroupInclusiveAdd(p ? x : float16_t(0));
}

float16_t mtl_simd_iscan_sum(float16_t x, bool p)
{
    float16_t part = mtl_sg_reduce_sum(x, p);
    float16_t own = mtl_sg_iscan_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float16[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    float16_t a = float16_t(0);
    for (uint j = 0u; j < count; j++)
    {
        float16_t b = mtl_part_float16[first + j];
        a = (a + b);
    }
    float16_t b = own;
    return (a + b);
}

float16_t simd_prefix_inclusive_sum(float16_t x, bool mtl_p) { return mtl_simd_iscan_sum(x, mtl_p); }

vec4 mtl_sg_xscan_sum(vec4 x, bool p)
{
    return subgroupExclusiveAdd(p ? x : vec4(0));
}

vec4 mtl_simd_xscan_sum(vec4 x, bool p)
{
    vec4 part = mtl_sg_reduce_sum(x, p);
    vec4 own = mtl_sg_xscan_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_vec4[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    vec4 a = vec4(0);
    for (uint j = 0u; j < count; j++)
    {
        vec4 b = mtl_part_vec4[first + j];
        a = (a + b);
    }
    vec4 b = own;
    return (a + b);
}

vec4 simd_prefix_exclusive_sum(vec4 x, bool mtl_p) { return mtl_simd_xscan_sum(x, mtl_p); }

ivec2 mtl_sg_reduce_min(ivec2 x, bool p)
{
    return subgroupMin(p ? x : ivec2(0x7fffffff));
}

ivec2 mtl_simd_reduce_min(ivec2 x, bool p)
{
    ivec2 part = mtl_sg_reduce_min(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_ivec2[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    ivec2 a = ivec2(0x7fffffff);
    for (uint j = 0u; j < count; j++)
    {
        ivec2 b = mtl_part_ivec2[first + j];
        a = min(a, b);
    }
    return a;
}

ivec2 simd_min(ivec2 x, bool mtl_p) { return mtl_simd_reduce_min(x, mtl_p); }

float mtl_sg_iscan_product(float x, bool p)
{
    return subgroupInclusiveMul(p ? x : float(1));
}

float mtl_simd_iscan_product(float x, bool p)
{
    float part = mtl_sg_reduce_product(x, p);
    float own = mtl_sg_iscan_product(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    float a = float(1);
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = (a * b);
    }
    float b = own;
    return (a * b);
}

float simd_prefix_inclusive_product(float x, bool mtl_p) { return mtl_simd_iscan_product(x, mtl_p); }

float simd_broadcast_first(float x, bool mtl_p) { return mtl_simd_get(x, uint(findLSB(mtl_simd_ballot(true, mtl_p))), mtl_p); }

int mtl_sg_iscan_sum(int x, bool p)
{
    return subgroupInclusiveAdd(p ? x : int(0));
}

int mtl_simd_iscan_sum(int x, bool p)
{
    int part = mtl_sg_reduce_sum(x, p);
    int own = mtl_sg_iscan_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_int[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = mtl_sg_id() - first;
    int a = int(0);
    for (uint j = 0u; j < count; j++)
    {
        int b = mtl_part_int[first + j];
        a = (a + b);
    }
    int b = own;
    return (a + b);
}

int simd_prefix_inclusive_sum(int x, bool mtl_p) { return mtl_simd_iscan_sum(x, mtl_p); }

uint mtl_sg_shuffle(uint x, uint id) { return subgroupShuffle(x, id); }

uint mtl_quad_get(uint x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

uint mtl_quad_ballot(bool c, bool p)
{
    uvec4 b = mtl_sg_ballot(p && c);
    uint l = mtl_sg_lane() & ~3u;
    return (b[l >> 5u] >> (l & 31u)) & 15u;
}

bool quad_is_first(bool mtl_p) { return (gl_LocalInvocationIndex & 3u) == uint(findLSB(mtl_quad_ballot(true, mtl_p))); }

uint16_t quad_active_threads_mask(bool mtl_p) { return uint16_t(mtl_quad_ballot(true, mtl_p)); }

float mtl_sg_shuffle(float x, uint id) { return subgroupShuffle(x, id); }

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

float quad_sum(float x, bool mtl_p) { return mtl_quad_reduce_sum(x, mtl_p); }

int mtl_sg_shuffle(int x, uint id) { return subgroupShuffle(x, id); }

int mtl_quad_get(int x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

int quad_broadcast_first(int x, bool mtl_p) { return mtl_quad_get(x, uint(findLSB(mtl_quad_ballot(true, mtl_p))), mtl_p); }

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

float quad_product(float x, bool mtl_p) { return mtl_quad_reduce_product(x, mtl_p); }

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

int quad_min(int x, bool mtl_p) { return mtl_quad_reduce_min(x, mtl_p); }

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

uint quad_max(uint x, bool mtl_p) { return mtl_quad_reduce_max(x, mtl_p); }

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

uint quad_and(uint x, bool mtl_p) { return mtl_quad_reduce_and(x, mtl_p); }

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

uint quad_or(uint x, bool mtl_p) { return mtl_quad_reduce_or(x, mtl_p); }

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

uint quad_xor(uint x, bool mtl_p) { return mtl_quad_reduce_xor(x, mtl_p); }

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

float quad_prefix_inclusive_sum(float x, bool mtl_p) { return mtl_quad_iscan_sum(x, mtl_p); }

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

int quad_prefix_exclusive_sum(int x, bool mtl_p) { return mtl_quad_xscan_sum(x, mtl_p); }

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

int quad_prefix_inclusive_product(int x, bool mtl_p) { return mtl_quad_iscan_product(x, mtl_p); }

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

float quad_prefix_exclusive_product(float x, bool mtl_p) { return mtl_quad_xscan_product(x, mtl_p); }

float quad_shuffle(float x, uint lane, bool mtl_p) { return mtl_quad_get(x, lane, mtl_p); }

float quad_shuffle_up(float x, uint d, bool mtl_p)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, l >= d ? l - d : l, mtl_p);
}

int quad_shuffle_down(int x, uint d, bool mtl_p)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, l + d < 4u ? l + d : l, mtl_p);
}

uint quad_shuffle_xor(uint x, uint d, bool mtl_p)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, (l ^ d) & 3u, mtl_p);
}

float quad_shuffle_rotate_up(float x, uint d, bool mtl_p)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, (l - d) & 3u, mtl_p);
}

int quad_shuffle_rotate_down(int x, uint d, bool mtl_p)
{
    uint l = (gl_LocalInvocationIndex & 3u);
    return mtl_quad_get(x, (l + d) & 3u, mtl_p);
}

float quad_shuffle_and_fill_up(float x, float fill, uint d, bool mtl_p)
{
    uint m = 4u;
    uint l = (gl_LocalInvocationIndex & 3u), i = l % m, base = l - i;
    float a = mtl_quad_get(x, base + (i >= d ? i - d : i), mtl_p);
    float b = mtl_quad_get(fill, base + (i < d ? m - d + i : i), mtl_p);
    return i >= d ? a : b;
}

int quad_shuffle_and_fill_down(int x, int fill, uint d, bool mtl_p)
{
    uint m = 4u;
    uint l = (gl_LocalInvocationIndex & 3u), i = l % m, base = l - i;
    int a = mtl_quad_get(x, base + (i + d < m ? i + d : i), mtl_p);
    int b = mtl_quad_get(fill, base + (i + d >= m ? i + d - m : i), mtl_p);
    return i + d < m ? a : b;
}

float quad_broadcast(float x, uint lane, bool mtl_p) { return mtl_quad_get(x, lane, mtl_p); }

uint quad_broadcast_first(uint x, bool mtl_p) { return mtl_quad_get(x, uint(findLSB(mtl_quad_ballot(true, mtl_p))), mtl_p); }

uint16_t quad_ballot(bool c, bool mtl_p) { return uint16_t(mtl_quad_ballot(c, mtl_p)); }

bool quad_all(bool c, bool mtl_p) { return mtl_quad_ballot(c, mtl_p) == mtl_quad_ballot(true, mtl_p); }

bool quad_any(bool c, bool mtl_p) { return mtl_quad_ballot(c, mtl_p) != 0u; }

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

vec4 quad_sum(vec4 x, bool mtl_p) { return mtl_quad_reduce_sum(x, mtl_p); }

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

ivec2 quad_max(ivec2 x, bool mtl_p) { return mtl_quad_reduce_max(x, mtl_p); }

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

float16_t quad_sum(float16_t x, bool mtl_p) { return mtl_quad_reduce_sum(x, mtl_p); }

uvec3 mtl_sg_shuffle(uvec3 x, uint id) { return subgroupShuffle(x, id); }

uvec3 mtl_quad_get(uvec3 x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~3u) + (lane & 3u)); }

uvec3 quad_shuffle(uvec3 x, uint lane, bool mtl_p) { return mtl_quad_get(x, lane, mtl_p); }

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

float quad_min(float x, bool mtl_p) { return mtl_quad_reduce_min(x, mtl_p); }

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

float quad_max(float x, bool mtl_p) { return mtl_quad_reduce_max(x, mtl_p); }

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

uint quad_prefix_exclusive_sum(uint x, bool mtl_p) { return mtl_quad_xscan_sum(x, mtl_p); }

f16vec2 mtl_sg_reduce_sum(f16vec2 x, bool p)
{
    return subgroupAdd(p ? x : f16vec2(0));
}

f16vec2 mtl_simd_reduce_sum(f16vec2 x, bool p)
{
    f16vec2 part = mtl_sg_reduce_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_f16vec2[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    f16vec2 a = f16vec2(0);
    for (uint j = 0u; j < count; j++)
    {
        f16vec2 b = mtl_part_f16vec2[first + j];
        a = (a + b);
    }
    return a;
}

f16vec2 simd_sum(f16vec2 x, bool mtl_p) { return mtl_simd_reduce_sum(x, mtl_p); }

f16vec2 mtl_simd_get(f16vec2 x, uint lane, bool p)
{
    barrier();
    mtl_xchg_f16vec2[gl_LocalInvocationIndex] = x;
    barrier();
    uint src = (gl_LocalInvocationIndex & ~31u) + lane;
    return src < mtl_threadgroup_total ? mtl_xchg_f16vec2[src] : x;
}

f16vec2 simd_shuffle_xor(f16vec2 x, uint d, bool mtl_p)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l ^ d) & 31u, mtl_p);
}

f16vec2 mtl_sg_shuffle(f16vec2 x, uint id) { return subgroupShuffle(x, id); }

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

f16vec2 quad_prefix_inclusive_sum(f16vec2 x, bool mtl_p) { return mtl_quad_iscan_sum(x, mtl_p); }

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
    float mtl_s1 = simd_sum(f, true);
    out_[o + 0u] = mtl_s1;
    float mtl_s2 = simd_product(g, true);
    out_[o + 1u] = mtl_s2;
    float mtl_s3 = simd_min(f, true);
    out_[o + 2u] = mtl_s3;
    int mtl_s4 = simd_max(i, true);
    out_[o + 3u] = float(mtl_s4);
    uint mtl_s5 = simd_and(u + 64u, true);
    out_[o + 4u] = float(mtl_s5);
    uint mtl_s6 = simd_or(u, true);
    out_[o + 5u] = float(mtl_s6);
    uint mtl_s7 = simd_xor(u, true);
    out_[o + 6u] = float(mtl_s7);
    float mtl_s8 = simd_prefix_inclusive_sum(f, true);
    out_[o + 7u] = mtl_s8;
    int mtl_s9 = simd_prefix_exclusive_sum(i, true);
    out_[o + 8u] = float(mtl_s9);
    int mtl_s10 = simd_prefix_inclusive_product(small, true);
    out_[o + 9u] = float(mtl_s10);
    float mtl_s11 = simd_prefix_exclusive_product(g, true);
    out_[o + 10u] = mtl_s11;
    int mtl_s12 = simd_product(small, true);
    out_[o + 11u] = float(mtl_s12);
    uint mtl_s13 = simd_min(u, true);
    out_[o + 12u] = float(mtl_s13);
    float mtl_s14 = simd_max(f, true);
    out_[o + 13u] = mtl_s14;
    uint mtl_s15 = simd_prefix_inclusive_sum(u, true);
    out_[o + 14u] = float(mtl_s15);
    uint mtl_s16 = simd_prefix_exclusive_sum(u, true);
    out_[o + 15u] = float(mtl_s16);
    uint src = (lane * 5u + 3u) % lanes;
    float mtl_s17 = simd_shuffle(f, src, true);
    out_[o + 16u] = mtl_s17;
    float mtl_s18 = simd_shuffle_up(f, 3u, true);
    out_[o + 17u] = mtl_s18;
    int mtl_s19 = simd_shuffle_down(i, 5u, true);
    precise float down = float(mtl_s19);
    out_[o + 18u] = lane + 5u < lanes || lanes == 32u ? down : MISSING;
    uint mtl_s20 = simd_shuffle_xor(u, 6u, true);
    precise float x6 = float(mtl_s20);
    out_[o + 19u] = (lane ^ 6u) < lanes ? x6 : MISSING;
    float mtl_s21 = simd_shuffle_rotate_up(f, 4u, true);
    precise float rot_up = mtl_s21;
    out_[o + 20u] = ((lane - 4u) & 31u) < lanes ? rot_up : MISSING;
    int mtl_s22 = simd_shuffle_rotate_down(i, 9u, true);
    precise float rot_down = float(mtl_s22);
    out_[o + 21u] = ((lane + 9u) & 31u) < lanes ? rot_down : MISSING;
    float mtl_s23 = simd_shuffle_and_fill_up(f, f + 1e+02, 3u, true);
    precise float fill_up = mtl_s23;
    out_[o + 22u] = lane >= 3u || 29u + lane < lanes ? fill_up : MISSING;
    int mtl_s24 = simd_shuffle_and_fill_down(i, i + 1000, 7u, true);
    precise float fill_down = float(mtl_s24);
    out_[o + 23u] = lane + 7u < lanes || lane + 7u - 32u < lanes ? fill_down : MISSING;
    uint mtl_s25 = simd_shuffle_and_fill_up(u, u + 500u, 2u, 8u, true);
    precise float fill_up8 = float(mtl_s25);
    uint up8_src = (lane % 8u) >= 2u ? lane - 2u : lane - lane % 8u + 6u + lane % 8u;
    out_[o + 24u] = up8_src < lanes ? fill_up8 : MISSING;
    float mtl_s26 = simd_shuffle_and_fill_down(f, -f, 3u, 16u, true);
    precise float fill_down16 = mtl_s26;
    uint down16_src = (lane % 16u) + 3u < 16u ? lane + 3u : lane + 3u - 16u;
    out_[o + 25u] = down16_src < lanes ? fill_down16 : MISSING;
    float mtl_s27 = simd_broadcast(f, 2u, true);
    precise float b2 = mtl_s27;
    out_[o + 26u] = lanes > 2u ? b2 : MISSING;
    int mtl_s28 = simd_broadcast_first(i, true);
    out_[o + 27u] = float(mtl_s28);
    uint64_t mtl_s29 = simd_ballot(lane % 3u == 1u, true);
    uint ballot = uint(mtl_s29);
    out_[o + 28u] = float(ballot & 65535u);
    out_[o + 29u] = float(ballot >> 16);
    bool mtl_s30 = simd_all(f > -1e+01, true);
    out_[o + 30u] = mtl_s30 ? 1.0 : 0.0;
    bool mtl_s31 = simd_all(lane < 20u, true);
    out_[o + 31u] = mtl_s31 ? 1.0 : 0.0;
    bool mtl_s32 = simd_any(lane == 7u, true);
    out_[o + 32u] = mtl_s32 ? 1.0 : 0.0;
    bool mtl_s33 = simd_is_first(true);
    out_[o + 33u] = mtl_s33 ? 1.0 : 0.0;
    uint64_t mtl_s34 = simd_active_threads_mask(true);
    uint active_ = uint(mtl_s34);
    out_[o + 34u] = float(active_ & 65535u);
    out_[o + 35u] = float(active_ >> 16);
    vec4 mtl_s35 = simd_sum(f4, true);
    out_[o + 36u] = mtl_s35.y;
    vec4 mtl_s36 = simd_max(f4, true);
    out_[o + 37u] = mtl_s36.z;
    ivec2 mtl_s37 = simd_max(i2, true);
    out_[o + 38u] = float(mtl_s37.y);
    uvec3 mtl_s38 = simd_shuffle(u3, lane ^ 1u, true);
    precise float sh3 = float(mtl_s38.z);
    out_[o + 39u] = (lane ^ 1u) < lanes ? sh3 : MISSING;
    float16_t mtl_s39 = simd_sum(h, true);
    out_[o + 40u] = float(mtl_s39);
    float16_t mtl_s40 = simd_prefix_inclusive_sum(h, true);
    out_[o + 41u] = float(mtl_s40);
    vec4 mtl_s41 = simd_prefix_exclusive_sum(f4, true);
    out_[o + 42u] = mtl_s41.w;
    ivec2 mtl_s42 = simd_min(i2, true);
    out_[o + 43u] = float(mtl_s42.x);
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
    bool mtl_c43 = lane % 3u != 0u;
    {
        float mtl_s44 = simd_sum(f, mtl_c43);
        if (mtl_c43)
        {
            d_sum = mtl_s44;
        }
        int mtl_s45 = simd_max(i, mtl_c43);
        if (mtl_c43)
        {
            d_max = float(mtl_s45);
        }
        uint mtl_s46 = simd_prefix_exclusive_sum(u, mtl_c43);
        if (mtl_c43)
        {
            d_xsum = float(mtl_s46);
        }
        float mtl_s47 = simd_prefix_inclusive_product(g, mtl_c43);
        if (mtl_c43)
        {
            d_iprod = mtl_s47;
        }
        float mtl_s48 = simd_broadcast_first(f, mtl_c43);
        if (mtl_c43)
        {
            d_first = mtl_s48;
        }
        bool mtl_s49 = simd_is_first(mtl_c43);
        if (mtl_c43)
        {
            d_is_first = mtl_s49 ? 1.0 : 0.0;
        }
        uint64_t mtl_s50 = simd_active_threads_mask(mtl_c43);
        uint a;
        if (mtl_c43)
        {
            a = uint(mtl_s50);
        }
        if (mtl_c43)
        {
            d_active_lo = float(a & 65535u);
            d_active_hi = float(a >> 16);
        }
        uint64_t mtl_s51 = simd_ballot(lane > 10u, mtl_c43);
        uint b;
        if (mtl_c43)
        {
            b = uint(mtl_s51);
        }
        if (mtl_c43)
        {
            d_ballot_lo = float(b & 65535u);
            d_ballot_hi = float(b >> 16);
        }
        bool mtl_s52 = simd_all(lane % 3u != 0u, mtl_c43);
        if (mtl_c43)
        {
            d_all = mtl_s52 ? 1.0 : 0.0;
        }
        bool mtl_s53 = simd_any(lane == 4u, mtl_c43);
        if (mtl_c43)
        {
            d_any = mtl_s53 ? 1.0 : 0.0;
        }
        uint mtl_s54 = simd_and(u | 1u, mtl_c43);
        if (mtl_c43)
        {
            d_and = float(mtl_s54);
        }
        int mtl_s55 = simd_prefix_inclusive_sum(i, mtl_c43);
        if (mtl_c43)
        {
            d_isum = float(mtl_s55);
        }
        bool mtl_s56 = quad_is_first(mtl_c43);
        if (mtl_c43)
        {
            d_quad_first = mtl_s56 ? 1.0 : 0.0;
        }
        uint16_t mtl_s57 = quad_active_threads_mask(mtl_c43);
        if (mtl_c43)
        {
            d_quad_active = float(uint(mtl_s57));
        }
        float mtl_s58 = quad_sum(f, mtl_c43);
        if (mtl_c43)
        {
            d_quad_sum = mtl_s58;
        }
        int mtl_s59 = quad_broadcast_first(i, mtl_c43);
        if (mtl_c43)
        {
            d_quad_bfirst = float(mtl_s59);
        }
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
    float mtl_s60 = quad_sum(f, true);
    out_[o + 62u] = mtl_s60;
    float mtl_s61 = quad_product(g, true);
    out_[o + 63u] = mtl_s61;
    int mtl_s62 = quad_min(i, true);
    out_[o + 64u] = float(mtl_s62);
    uint mtl_s63 = quad_max(u, true);
    out_[o + 65u] = float(mtl_s63);
    uint mtl_s64 = quad_and(u + 64u, true);
    out_[o + 66u] = float(mtl_s64);
    uint mtl_s65 = quad_or(u, true);
    out_[o + 67u] = float(mtl_s65);
    uint mtl_s66 = quad_xor(u, true);
    out_[o + 68u] = float(mtl_s66);
    float mtl_s67 = quad_prefix_inclusive_sum(f, true);
    out_[o + 69u] = mtl_s67;
    int mtl_s68 = quad_prefix_exclusive_sum(i, true);
    out_[o + 70u] = float(mtl_s68);
    int mtl_s69 = quad_prefix_inclusive_product(small, true);
    out_[o + 71u] = float(mtl_s69);
    float mtl_s70 = quad_prefix_exclusive_product(g, true);
    out_[o + 72u] = mtl_s70;
    float mtl_s71 = quad_shuffle(f, 3u - quad_lane, true);
    precise float q_sh = mtl_s71;
    out_[o + 73u] = 3u - quad_lane < quad_lanes ? q_sh : MISSING;
    float mtl_s72 = quad_shuffle_up(f, 1u, true);
    out_[o + 74u] = mtl_s72;
    int mtl_s73 = quad_shuffle_down(i, 2u, true);
    precise float q_down = float(mtl_s73);
    out_[o + 75u] = quad_lane + 2u < quad_lanes || quad_lanes == 4u ? q_down : MISSING;
    uint mtl_s74 = quad_shuffle_xor(u, 1u, true);
    precise float q_xor = float(mtl_s74);
    out_[o + 76u] = (quad_lane ^ 1u) < quad_lanes ? q_xor : MISSING;
    float mtl_s75 = quad_shuffle_rotate_up(f, 1u, true);
    precise float q_rot_up = mtl_s75;
    out_[o + 77u] = ((quad_lane + 3u) & 3u) < quad_lanes ? q_rot_up : MISSING;
    int mtl_s76 = quad_shuffle_rotate_down(i, 3u, true);
    precise float q_rot_down = float(mtl_s76);
    out_[o + 78u] = ((quad_lane + 3u) & 3u) < quad_lanes ? q_rot_down : MISSING;
    float mtl_s77 = quad_shuffle_and_fill_up(f, -f, 1u, true);
    precise float q_fill_up = mtl_s77;
    out_[o + 79u] = quad_lane >= 1u || 3u < quad_lanes ? q_fill_up : MISSING;
    int mtl_s78 = quad_shuffle_and_fill_down(i, i + 100, 2u, true);
    precise float q_fill_down = float(mtl_s78);
    out_[o + 80u] = quad_lane + 2u < quad_lanes || quad_lane + 2u - 4u < quad_lanes ? q_fill_down : MISSING;
    float mtl_s79 = quad_broadcast(f, 0u, true);
    out_[o + 81u] = mtl_s79;
    uint mtl_s80 = quad_broadcast_first(u, true);
    out_[o + 82u] = float(mtl_s80);
    uint16_t mtl_s81 = quad_ballot(lane % 2u == 0u, true);
    out_[o + 83u] = float(uint(mtl_s81));
    bool mtl_s82 = quad_all(f > 0.0, true);
    out_[o + 84u] = mtl_s82 ? 1.0 : 0.0;
    bool mtl_s83 = quad_any(lane == 5u, true);
    out_[o + 85u] = mtl_s83 ? 1.0 : 0.0;
    bool mtl_s84 = quad_is_first(true);
    out_[o + 86u] = mtl_s84 ? 1.0 : 0.0;
    uint16_t mtl_s85 = quad_active_threads_mask(true);
    out_[o + 87u] = float(uint(mtl_s85));
    vec4 mtl_s86 = quad_sum(f4, true);
    out_[o + 88u] = mtl_s86.x;
    ivec2 mtl_s87 = quad_max(i2, true);
    out_[o + 89u] = float(mtl_s87.y);
    float16_t mtl_s88 = quad_sum(h, true);
    out_[o + 90u] = float(mtl_s88);
    uvec3 mtl_s89 = quad_shuffle(u3, 0u, true);
    precise float q_sh3 = float(mtl_s89.y);
    out_[o + 91u] = q_sh3;
    float mtl_s90 = quad_min(f, true);
    out_[o + 92u] = mtl_s90;
    float mtl_s91 = quad_max(f, true);
    out_[o + 93u] = mtl_s91;
    uint mtl_s92 = quad_prefix_exclusive_sum(u, true);
    out_[o + 94u] = float(mtl_s92);
    out_[o + 95u] = float(lanes);
    f16vec2 mtl_s93 = simd_sum(h2, true);
    out_[o + 96u] = float(mtl_s93.y);
    f16vec2 mtl_s94 = simd_shuffle_xor(h2, 3u, true);
    precise float hx = float(mtl_s94.x);
    out_[o + 97u] = (lane ^ 3u) < lanes ? hx : MISSING;
    f16vec2 mtl_s95 = quad_prefix_inclusive_sum(h2, true);
    out_[o + 98u] = float(mtl_s95.y);
}
