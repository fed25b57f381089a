#version 450
// Translated by mtl2glsl 0.1.0 from simdgroup_matrix.metal, kernel attention_block
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
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

struct AttnShape
{
    uint Lq;
    uint Lk;
    float scale;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_Q { float16_t Q[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_K { float16_t K[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_V { float16_t V[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_O { precise float O[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) AttnShape p;
} mtl_params;

// Threadgroup memory.
precise shared float16_t tq[256];
precise shared float16_t tk[256];
precise shared float16_t tv[256];

// SIMD-group functions for 32-wide subgroups (native: Metal's 32 lanes are the device's subgroup).
uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane(); }
uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id(); }

// SIMD-group matrices (8x8) as Apple lays them out: lane l holds row (l / 16) * 4 + (l / 2) % 4, columns c and
// c + 1 with c = ((l / 8) % 2) * 4 + (l % 2) * 2; this lane's two elements are a vec2 (thread_elements()).
uvec2 mtl_simdgroup_matrix_coord(uint l) { return uvec2(((l >> 3u) & 1u) * 4u + (l & 1u) * 2u, (l >> 4u) * 4u + ((l >> 1u) & 3u)); }
uint mtl_simdgroup_matrix_lane(uint row, uint column) { return ((row >> 2u) << 4u) | (((column >> 2u) & 1u) << 3u) | ((row & 3u) << 1u) | ((column >> 1u) & 1u); }

// Where this lane's element k of a matrix at origin (column, row) lies, its rows elements_per_row apart
// (transposed: its columns).
uint mtl_simdgroup_matrix_index(uint elements_per_row, uvec2 origin, bool transpose_matrix, uint k)
{
    uvec2 at = origin + mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup()) + uvec2(k, 0u);
    return transpose_matrix ? at.x * elements_per_row + at.y : at.y * elements_per_row + at.x;
}

vec2 mtl_sg_shuffle(vec2 x, uint id) { return subgroupShuffle(x, id); }

vec2 mtl_simd_get(vec2 x, uint lane, bool p) { return mtl_sg_shuffle(x, lane); }

// d = a * b + c, in float: row r of a from the 4 lanes that hold it, columns c and c + 1 of b from 8 lanes
vec2 simdgroup_multiply_accumulate(vec2 a, vec2 b, vec2 c)
{
    uvec2 at = mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup());
    vec2 d = c;
    for (uint k = 0u; k < 8u; k += 2u)
    {
        vec2 ak = mtl_simd_get(a, mtl_simdgroup_matrix_lane(at.y, k), true);
        d = fma(vec2(ak.x), mtl_simd_get(b, mtl_simdgroup_matrix_lane(k, at.x), true), d);
        d = fma(vec2(ak.y), mtl_simd_get(b, mtl_simdgroup_matrix_lane(k + 1u, at.x), true), d);
    }
    return d;
}

float mtl_sg_shuffle(float x, uint id) { return subgroupShuffle(x, id); }

float mtl_simd_get(float x, uint lane, bool p) { return mtl_sg_shuffle(x, lane); }

uvec4 mtl_sg_ballot(bool c) { return subgroupBallot(c); }

uint mtl_simd_ballot(bool c, bool p) { return mtl_sg_ballot(p && c).x; }

float simd_shuffle_xor(float x, uint d)
{
    uint l = mtl_thread_index_in_simdgroup();
    return mtl_simd_get(x, (l ^ d) & 31u, true);
}

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

void main()
{
    AttnShape p = mtl_params.p;
    uint tid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint16_t lane = uint16_t(mtl_thread_index_in_simdgroup());
    uint16_t sg = uint16_t(mtl_simdgroup_index_in_threadgroup());
    uint myq = uint(128 * int(sg));
    uint myk = uint(128 * int(sg));
    uint myv = uint(128 * int(sg));
    uint q0 = (tid / 32u) * 8u;
    uint16_t qid = uint16_t(int(lane) / 4);
    uint16_t row = uint16_t((int(qid) & 4) + mtl_rem((int(lane) / 2), 4));
    uint16_t col = uint16_t((int(qid) & 2) * 2 + (mtl_rem(int(lane), 2)) * 2);
    for (uint i = uint(lane); i < 128u; i += 32u)
    {
        tq[myq + i] = q0 + i / 16u < p.Lq ? Q[(q0 + i / 16u) * 16u + i % 16u] : 0.0hf;
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    precise f16vec2 q[2];
    q[0] = f16vec2(tq[myq + mtl_simdgroup_matrix_index(16u, uvec2(0u), false, 0u)], tq[myq + mtl_simdgroup_matrix_index(16u, uvec2(0u), false, 1u)]);
    q[1] = f16vec2(tq[myq + 8u + mtl_simdgroup_matrix_index(16u, uvec2(0u), false, 0u)], tq[myq + 8u + mtl_simdgroup_matrix_index(16u, uvec2(0u), false, 1u)]);
    precise vec2 o[2] = vec2[2](vec2(0.0), vec2(0.0));
    precise float m = -uintBitsToFloat(0x7f800000u);
    float l = 0.0;
    for (uint k0 = 0u; k0 < p.Lk; k0 += 8u)
    {
        for (uint i = uint(lane); i < 128u; i += 32u)
        {
            uint key = k0 + i / 16u;
            tk[myk + i] = key < p.Lk ? K[key * 16u + i % 16u] : 0.0hf;
            tv[myv + i] = key < p.Lk ? V[key * 16u + i % 16u] : 0.0hf;
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
        precise vec2 s = vec2(0.0);
        for (int d = 0; d < 2; d++)
        {
            precise f16vec2 kt;
            kt = f16vec2(tk[myk + uint(8 * d) + mtl_simdgroup_matrix_index(16u, uvec2(0), true, 0u)], tk[myk + uint(8 * d) + mtl_simdgroup_matrix_index(16u, uvec2(0), true, 1u)]);
            s = simdgroup_multiply_accumulate(vec2(q[d]), vec2(kt), s);
        }
        precise vec2 e = s * p.scale;
        if (k0 + uint(col) >= p.Lk)
        {
            e.x = -uintBitsToFloat(0x7f800000u);
        }
        if (k0 + uint(col) + 1u >= p.Lk)
        {
            e.y = -uintBitsToFloat(0x7f800000u);
        }
        precise float mx = max(e.x, e.y);
        mx = max(mx, simd_shuffle_xor(mx, 1u));
        mx = max(mx, simd_shuffle_xor(mx, 8u));
        precise float m_new = max(m, mx);
        precise vec2 pe = exp(e - m_new);
        precise float rs = pe.x + pe.y;
        rs += simd_shuffle_xor(rs, 1u);
        rs += simd_shuffle_xor(rs, 8u);
        precise float corr = exp(m - m_new);
        l = l * corr + rs;
        m = m_new;
        precise vec2 pm;
        pm = pe;
        for (int j = 0; j < 2; j++)
        {
            o[j] *= corr;
            precise f16vec2 vb;
            vb = f16vec2(tv[myv + uint(8 * j) + mtl_simdgroup_matrix_index(16u, uvec2(0u), false, 0u)], tv[myv + uint(8 * j) + mtl_simdgroup_matrix_index(16u, uvec2(0u), false, 1u)]);
            o[j] = simdgroup_multiply_accumulate(pm, vec2(vb), o[j]);
        }
        subgroupMemoryBarrierShared();
        subgroupBarrier();
    }
    if (q0 + uint(row) < p.Lq)
    {
        for (int j = 0; j < 2; j++)
        {
            precise vec2 r = o[j] / l;
            O[(q0 + uint(row)) * 16u + uint(8 * j) + uint(col)] = r.x;
            O[(q0 + uint(row)) * 16u + uint(8 * j) + uint(col) + 1u] = r.y;
        }
    }
}
