#version 450
// Translated by mtl2glsl 0.1.0 from mlx_params.metal, kernel shuffle_small_short
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { int16_t x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_down { int16_t down[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_raw_down { int16_t raw_down[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_sums { int16_t sums[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_maxes { int16_t maxes[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_filled { int16_t filled[]; };

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

int mtl_sg_shuffle(int x, uint id) { return subgroupShuffle(x, id); }

int mtl_simd_get(int x, uint lane, bool p) { return mtl_sg_shuffle(x, lane); }

uvec4 mtl_sg_ballot(bool c) { return subgroupBallot(c); }

uint mtl_simd_ballot(bool c, bool p) { return mtl_sg_ballot(p && c).x; }

int simd_shuffle_down(int x, uint d)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, l + d < 32u ? l + d : l, true);
}

int mtl_sg_reduce_sum(int x, bool p)
{
    return subgroupAdd(p ? x : int(0));
}

int mtl_simd_reduce_sum(int x, bool p) { return mtl_sg_reduce_sum(x, p); }

int simd_sum(int x) { return mtl_simd_reduce_sum(x, true); }

int mtl_sg_reduce_max(int x, bool p)
{
    return subgroupMax(p ? x : int(int(0x80000000u)));
}

int mtl_simd_reduce_max(int x, bool p) { return mtl_sg_reduce_max(x, p); }

int simd_max(int x) { return mtl_simd_reduce_max(x, true); }

int simd_shuffle_and_fill_up(int x, int fill, uint d, uint m)
{
    uint l = mtl_thread_index_in_simdgroup(), i = l % m, base = l - i;
    int a = mtl_simd_get(x, base + (i >= d ? i - d : i), true);
    int b = mtl_simd_get(fill, base + (i < d ? m - d + i : i), true);
    return i >= d ? a : b;
}

void main()
{
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    int16_t v = x[i];
    down[i] = int16_t(simd_shuffle_down(int(v), 3u));
    raw_down[i] = int16_t(simd_shuffle_down(int(v), 7u));
    sums[i] = int16_t(simd_sum(int(v)));
    maxes[i] = int16_t(simd_max(int(v)));
    filled[i] = int16_t(simd_shuffle_and_fill_up(int(v), int(int16_t(int(v) + 1)), 2u, 32u));
}
