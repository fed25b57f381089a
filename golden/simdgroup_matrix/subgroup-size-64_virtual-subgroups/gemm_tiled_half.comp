#version 450
// Translated by mtl2glsl 0.1.0 from simdgroup_matrix.metal, kernel gemm_tiled_half
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

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

struct GemmShape
{
    uint M;
    uint N;
    uint K;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_A { float16_t A[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_B { float16_t B[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_C { precise float C[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) GemmShape shape;
} mtl_params;

// Threadgroup memory.
precise shared float16_t As[512];
precise shared float16_t Bs[512];
precise shared float Cs[1024];

// Shared memory the SIMD-group functions exchange values through.
const uint mtl_subgroup_slots = (mtl_threadgroup_total + 64u - 1u) / 64u;
shared vec2 mtl_xchg_vec2[mtl_threadgroup_total];

// SIMD-group functions for virtual 64-wide subgroups (clustered: 32-lane clusters of the device's subgroups).
// Virtual subgroups of 64 threads (mtl2glsl --virtual-subgroups): lane and subgroup from the local index.
uint mtl_sg_lane() { return gl_LocalInvocationIndex % 64u; }
uint mtl_sg_id() { return gl_LocalInvocationIndex / 64u; }

// 64-wide subgroups hold 2 SIMD-groups of 32 lanes each.
uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane() & 31u; }
uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id() * 2u + (mtl_sg_lane() >> 5u); }

// SIMD-group matrices (8x8) as Apple lays them out: lane l holds row (l / 16) * 4 + (l / 2) % 4, columns c and
// c + 1 with c = ((l / 8) % 2) * 4 + (l % 2) * 2; this lane's two elements are a vec2 (thread_elements()).
uvec2 mtl_simdgroup_matrix_coord(uint l) { return uvec2(((l >> 3u) & 1u) * 4u + (l & 1u) * 2u, (l >> 4u) * 4u + ((l >> 1u) & 3u)); }
uint mtl_simdgroup_matrix_lane(uint row, uint column) { return ((row >> 2u) << 4u) | (((column >> 2u) & 1u) << 3u) | ((row & 3u) << 1u) | ((column >> 1u) & 1u); }

vec2 mtl_simdgroup_matrix_diagonal(float v)
{
    uvec2 at = mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup());
    return vec2(at.x == at.y ? v : 0.0, at.x + 1u == at.y ? v : 0.0);
}

// Where this lane's element k of a matrix at origin (column, row) lies, its rows elements_per_row apart
// (transposed: its columns).
uint mtl_simdgroup_matrix_index(uint elements_per_row, uvec2 origin, bool transpose_matrix, uint k)
{
    uvec2 at = origin + mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup()) + uvec2(k, 0u);
    return transpose_matrix ? at.x * elements_per_row + at.y : at.y * elements_per_row + at.x;
}

vec2 mtl_sg_shuffle(vec2 x, uint id)
{
    barrier();
    mtl_xchg_vec2[gl_LocalInvocationIndex] = x;
    barrier();
    uint base = gl_LocalInvocationIndex - gl_LocalInvocationIndex % 64u;
    uint n = min(64u, mtl_threadgroup_total - base);
    return id < n ? mtl_xchg_vec2[base + id] : x;
}

vec2 mtl_simd_get(vec2 x, uint lane, bool p) { return mtl_sg_shuffle(x, (mtl_sg_lane() & ~31u) + lane); }

// d = a * b + c, in float: row r of a from the 4 lanes that hold it, columns c and c + 1 of b from 8 lanes
vec2 simdgroup_multiply_accumulate(vec2 a, vec2 b, vec2 c, bool mtl_p)
{
    uvec2 at = mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup());
    vec2 d = c;
    for (uint k = 0u; k < 8u; k += 2u)
    {
        vec2 ak = mtl_simd_get(a, mtl_simdgroup_matrix_lane(at.y, k), mtl_p);
        d = fma(vec2(ak.x), mtl_simd_get(b, mtl_simdgroup_matrix_lane(k, at.x), mtl_p), d);
        d = fma(vec2(ak.y), mtl_simd_get(b, mtl_simdgroup_matrix_lane(k + 1u, at.x), mtl_p), d);
    }
    return d;
}

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

void main()
{
    GemmShape shape = mtl_params.shape;
    uvec2 group = gl_WorkGroupID.xy;
    uint16_t tid = uint16_t(gl_LocalInvocationIndex);
    uint16_t sg = uint16_t(mtl_simdgroup_index_in_threadgroup());
    uint row0 = group.y * 32u;
    uint col0 = group.x * 32u;
    uint16_t sr = uint16_t((int(sg) / 2) * 16);
    uint16_t sc = uint16_t((mtl_rem(int(sg), 2)) * 16);
    precise vec2 acc[2][2];
    for (int i = 0; i < 2; i++)
    {
        for (int j = 0; j < 2; j++)
        {
            acc[i][j] = mtl_simdgroup_matrix_diagonal(0.0);
        }
    }
    {
        for (uint k0 = 0u; k0 < shape.K; k0 += 16u)
        {
            for (uint i = uint(tid); i < uint(32 * 16); i += 128u)
            {
                uint r = i / 16u;
                uint c = i % 16u;
                As[i] = row0 + r < shape.M && k0 + c < shape.K ? A[(row0 + r) * shape.K + k0 + c] : 0.0hf;
                uint br = i / 32u;
                uint bc = i % 32u;
                Bs[i] = k0 + br < shape.K && col0 + bc < shape.N ? B[(k0 + br) * shape.N + col0 + bc] : 0.0hf;
            }
            memoryBarrierShared();
            barrier();
            {
                for (int kk = 0; kk < 16; kk += 8)
                {
                    precise f16vec2 a[2];
                    precise f16vec2 b[2];
                    for (int i = 0; i < 2; i++)
                    {
                        a[i] = f16vec2(As[mtl_simdgroup_matrix_index(16u, uvec2(uint(kk), uint(int(sr) + 8 * i)), false, 0u)], As[mtl_simdgroup_matrix_index(16u, uvec2(uint(kk), uint(int(sr) + 8 * i)), false, 1u)]);
                        b[i] = f16vec2(Bs[uint(int(sc)) + uint(8 * i) + mtl_simdgroup_matrix_index(32u, uvec2(0u, uint(kk)), false, 0u)], Bs[uint(int(sc)) + uint(8 * i) + mtl_simdgroup_matrix_index(32u, uvec2(0u, uint(kk)), false, 1u)]);
                    }
                    {
                        for (int i = 0; i < 2; i++)
                        {
                            {
                                for (int j = 0; j < 2; j++)
                                {
                                    vec2 mtl_s1 = simdgroup_multiply_accumulate(vec2(a[i]), vec2(b[j]), acc[i][j], true);
                                    acc[i][j] = mtl_s1;
                                }
                            }
                        }
                    }
                }
            }
            memoryBarrierShared();
            barrier();
        }
    }
    for (int i = 0; i < 2; i++)
    {
        for (int j = 0; j < 2; j++)
        {
            Cs[uint((int(sr) + 8 * i) * 32) + uint(int(sc)) + uint(8 * j) + mtl_simdgroup_matrix_index(32u, uvec2(0u), false, 0u)] = acc[i][j][0];
            Cs[uint((int(sr) + 8 * i) * 32) + uint(int(sc)) + uint(8 * j) + mtl_simdgroup_matrix_index(32u, uvec2(0u), false, 1u)] = acc[i][j][1];
        }
    }
    memoryBarrierShared();
    barrier();
    for (uint i = uint(tid); i < uint(32 * 32); i += 128u)
    {
        uint r = row0 + i / 32u;
        uint c = col0 + i % 32u;
        if (r < shape.M && c < shape.N)
        {
            C[r * shape.N + c] = Cs[i];
        }
    }
}
