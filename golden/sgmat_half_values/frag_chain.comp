#version 450
// Translated by mtl2glsl 0.1.0 from sgmat_half_values.metal, kernel frag_chain
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
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

struct GemmSize
{
    uint M;
    uint N;
    uint K;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_A { float16_t A[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_B { float16_t B[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_V { float V[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_O { precise float O[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) GemmSize s;
} mtl_params;

// Threadgroup memory.
precise shared float16_t As[64];
precise shared float16_t Bs[128];

// SIMD-group functions for 32-wide subgroups (native: Metal's 32 lanes are the device's subgroup).
uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane(); }
uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id(); }

// SIMD-group matrices (8x8) as Apple lays them out: lane l holds row (l / 16) * 4 + (l / 2) % 4, columns c and
// c + 1 with c = ((l / 8) % 2) * 4 + (l % 2) * 2; this lane's two elements are a vec2 (thread_elements()).
uvec2 mtl_simdgroup_matrix_coord(uint l) { return uvec2(((l >> 3u) & 1u) * 4u + (l & 1u) * 2u, (l >> 4u) * 4u + ((l >> 1u) & 3u)); }
uint mtl_simdgroup_matrix_lane(uint row, uint column) { return ((row >> 2u) << 4u) | (((column >> 2u) & 1u) << 3u) | ((row & 3u) << 1u) | ((column >> 1u) & 1u); }

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

// Where this lane's element k of a matrix at origin (column, row) lies, its rows elements_per_row apart
// (transposed: its columns).
uint mtl_simdgroup_matrix_index(uint elements_per_row, uvec2 origin, bool transpose_matrix, uint k)
{
    uvec2 at = origin + mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup()) + uvec2(k, 0u);
    return transpose_matrix ? at.x * elements_per_row + at.y : at.y * elements_per_row + at.x;
}

vec2 simdgroup_multiply(vec2 a, vec2 b) { return simdgroup_multiply_accumulate(a, b, vec2(0.0)); }

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

i16vec2 frag_coord(uint16_t lane)
{
    int16_t qid = int16_t(int(lane) / 4);
    int16_t fm = int16_t((int(qid) & 4) + (mtl_rem((int(lane) / 2), 4)));
    int16_t fn = int16_t((int(qid) & 2) * 2 + (mtl_rem(int(lane), 2)) * 2);
    return i16vec2(fn, fm);
}

void stage_half_A_B_As_Bs(uint A_p, uint B_p, uint As_p, uint Bs_p, GemmSize s, uint row0, uint col0, uint k0, uint16_t lane)
{
    for (uint i = uint(lane); i < 64u; i += 32u)
    {
        As[As_p + i] = A[A_p + ((row0 + i / 8u) * s.K + k0 + i % 8u)];
    }
    for (uint i = uint(lane); i < 128u; i += 32u)
    {
        Bs[Bs_p + i] = B[B_p + ((k0 + i / 16u) * s.N + col0 + i % 16u)];
    }
}

void load_frag_half_As(inout vec2 dst, uint src, int ld, i16vec2 at)
{
    for (int j = 0; j < 2; j++)
    {
        dst[j] = float(As[src + uint(int(at.y) * ld + int(at.x) + j)]);
    }
}

void load_frag_half_Bs(inout vec2 dst, uint src, int ld, i16vec2 at)
{
    for (int j = 0; j < 2; j++)
    {
        dst[j] = float(Bs[src + uint(int(at.y) * ld + int(at.x) + j)]);
    }
}

void frag_mma_c_is_d(inout vec2 d, inout vec2 a, inout vec2 b)
{
    precise vec2 am;
    precise vec2 bm;
    precise vec2 cm;
    precise vec2 dm;
    am = a;
    bm = b;
    cm = d;
    dm = simdgroup_multiply_accumulate(am, bm, cm);
    d = dm;
}

void main()
{
    GemmSize s = mtl_params.s;
    uvec2 tg = gl_WorkGroupID.xy;
    uint16_t lane = uint16_t(mtl_thread_index_in_simdgroup());
    uint row0 = tg.y * 8u;
    uint col0 = tg.x * 16u;
    i16vec2 at = frag_coord(lane);
    precise vec2 af;
    precise vec2 bf;
    precise vec2 p = vec2(0.0);
    for (uint k0 = 0u; k0 < s.K; k0 += 8u)
    {
        stage_half_A_B_As_Bs(0u, 0u, 0u, 0u, s, row0, 0u, k0, lane);
        memoryBarrierShared();
        barrier();
        load_frag_half_As(af, 0u, 8, at);
        load_frag_half_Bs(bf, 0u, 16, at);
        frag_mma_c_is_d(p, af, bf);
        memoryBarrierShared();
        barrier();
    }
    precise vec2 pm;
    precise vec2 vm;
    precise vec2 om;
    pm = p;
    for (int j = 0; j < 2; j++)
    {
        vm = vec2(V[col0 + uint(8 * j) + mtl_simdgroup_matrix_index(s.N, uvec2(0u), false, 0u)], V[col0 + uint(8 * j) + mtl_simdgroup_matrix_index(s.N, uvec2(0u), false, 1u)]);
        om = simdgroup_multiply(pm, vm);
        precise vec2 o = om;
        for (int e = 0; e < 2; e++)
        {
            O[(row0 + uint(at.y)) * s.N + col0 + uint(8 * j) + uint(at.x) + uint(e)] = o[e];
        }
    }
}
