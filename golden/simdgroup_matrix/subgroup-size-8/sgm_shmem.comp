#version 450
// Translated by mtl2glsl 0.1.0 from simdgroup_matrix.metal, kernel sgm_shmem
#extension GL_EXT_shader_explicit_arithmetic_types : require

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { mat2x4 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
layout(constant_id = 16) const uint mtl_threadgroup_length_0 = 1u; // [[threadgroup(0)]]: elements, set by the runtime
shared uint16_t shmem[(mtl_threadgroup_length_0 * 1u + 1u) / 2u]; // char* shmem, read as several types: 2-byte words

// Shared memory the SIMD-group functions exchange values through.
const uint mtl_subgroup_slots = (mtl_threadgroup_total + 8u - 1u) / 8u;
shared vec4 mtl_xchg_vec4[mtl_threadgroup_total];

// SIMD-group functions for 8-wide subgroups (emulated: 32-lane groups across the device's subgroups).
// SIMD-groups of 32 threads by local index, as Metal numbers them.
uint mtl_thread_index_in_simdgroup() { return gl_LocalInvocationIndex & 31u; }
uint mtl_simdgroup_index_in_threadgroup() { return gl_LocalInvocationIndex >> 5u; }

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

// d = a * b + c, in float: row r of a from the 4 lanes that hold it, columns c and c + 1 of b from 8 lanes
vec2 simdgroup_multiply_accumulate(vec2 a, vec2 b, vec2 c, bool mtl_p)
{
    barrier();
    mtl_xchg_vec4[gl_LocalInvocationIndex] = vec4(a, b);
    barrier();
    uint first = gl_LocalInvocationIndex & ~31u;
    uvec2 at = mtl_simdgroup_matrix_coord(gl_LocalInvocationIndex & 31u);
    vec2 d = c;
    for (uint k = 0u; k < 8u; k += 2u)
    {
        uint la = first + mtl_simdgroup_matrix_lane(at.y, k);
        uint lb0 = first + mtl_simdgroup_matrix_lane(k, at.x), lb1 = first + mtl_simdgroup_matrix_lane(k + 1u, at.x);
        vec2 ak = la < mtl_threadgroup_total ? mtl_xchg_vec4[la].xy : vec2(0.0);
        d = fma(vec2(ak.x), lb0 < mtl_threadgroup_total ? mtl_xchg_vec4[lb0].zw : vec2(0.0), d);
        d = fma(vec2(ak.y), lb1 < mtl_threadgroup_total ? mtl_xchg_vec4[lb1].zw : vec2(0.0), d);
    }
    return d;
}

vec2 simdgroup_multiply(vec2 a, vec2 b, bool mtl_p) { return simdgroup_multiply_accumulate(a, b, vec2(0.0), mtl_p); }

// Memory read and written member by member (docs/translator.md, "Pointers").
// threadgroup 'shmem' (2-byte words) written as half at byte b
void mtl_tg_store_shmem_float16_t(uint b, float16_t v)
{
    uint w = b / 2u;
    shmem[w] = float16BitsToUint16(v);
}

// threadgroup 'shmem' (2-byte words) written as half4 at byte b
void mtl_tg_store_shmem_f16vec4(uint b, f16vec4 v)
{
    uint w = b / 2u;
    shmem[w] = float16BitsToUint16(v[0]);
    shmem[w + 1u] = float16BitsToUint16(v[1]);
    shmem[w + 2u] = float16BitsToUint16(v[2]);
    shmem[w + 3u] = float16BitsToUint16(v[3]);
}

// threadgroup 'shmem' written as half2x4 at byte b, column by column
void mtl_tg_store_shmem_f16mat2x4(uint b, f16mat2x4 v)
{
    mtl_tg_store_shmem_f16vec4(b, v[0]);
    mtl_tg_store_shmem_f16vec4(b + 8u, v[1]);
}

// threadgroup 'shmem' (2-byte words) read as half at byte b
float16_t mtl_tg_load_shmem_float16_t(uint b)
{
    float16_t v;
    uint w = b / 2u;
    v = uint16BitsToFloat16(uint16_t(shmem[w]));
    return v;
}

// threadgroup 'shmem' (2-byte words) written as float at byte b
void mtl_tg_store_shmem_float(uint b, float v)
{
    uint w = b / 2u;
    shmem[w] = unpack16(floatBitsToUint(v))[0];
    shmem[w + 1u] = unpack16(floatBitsToUint(v))[1];
}

// threadgroup 'shmem' (2-byte words) read as float at byte b
float mtl_tg_load_shmem_float(uint b)
{
    float v;
    uint w = b / 2u;
    v = uintBitsToFloat(uint(pack32(u16vec2(shmem[w], shmem[w + 1u]))));
    return v;
}

void main()
{
    uint16_t lane = uint16_t(mtl_thread_index_in_simdgroup());
    uint sa = 0u;
    uint sb = 128u / 2u;
    for (uint16_t i = lane; int(i) < 64; i = uint16_t(i + 32))
    {
        mtl_tg_store_shmem_float16_t((sa + uint(i)) * 2u, float16_t(a[uint(i)]));
    }
    if (int(lane) < 8)
    {
        mtl_tg_store_shmem_f16mat2x4(((sb + uint(8 * int(lane))) / 4u) * 8u, f16mat2x4(b[uint(lane)]));
    }
    memoryBarrierShared();
    barrier();
    precise f16vec2 ma;
    precise f16vec2 mb;
    ma = f16vec2(mtl_tg_load_shmem_float16_t((sa + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)) * 2u), mtl_tg_load_shmem_float16_t((sa + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)) * 2u));
    mb = f16vec2(mtl_tg_load_shmem_float16_t((sb + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)) * 2u), mtl_tg_load_shmem_float16_t((sb + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)) * 2u));
    precise vec2 mc;
    vec2 mtl_s1 = simdgroup_multiply(vec2(ma), vec2(mb), true);
    mc = mtl_s1;
    memoryBarrierShared();
    barrier();
    uint t = 0u;
    {
        mtl_tg_store_shmem_float((t + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)) * 4u, mc[0]);
        mtl_tg_store_shmem_float((t + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)) * 4u, mc[1]);
    }
    memoryBarrierShared();
    barrier();
    for (uint16_t i = lane; int(i) < 64; i = uint16_t(i + 32))
    {
        out_[uint(i)] = mtl_tg_load_shmem_float((t + uint(i)) * 4u);
    }
}
