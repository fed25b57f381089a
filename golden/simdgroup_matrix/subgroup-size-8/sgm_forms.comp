#version 450
// Translated by mtl2glsl 0.1.0 from simdgroup_matrix.metal, kernel sgm_forms
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

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

vec2 mtl_simdgroup_matrix_diagonal(float v)
{
    uvec2 at = mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup());
    return vec2(at.x == at.y ? v : 0.0, at.x + 1u == at.y ? v : 0.0);
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

void main()
{
    uint tid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint g = tid / 32u;
    uint o = uint(7 * 64) * g;
    precise vec2 loaded;
    loaded = vec2(in_[64u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)], in_[64u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)]);
    precise vec2 diag = mtl_simdgroup_matrix_diagonal(2.0);
    precise vec2 acc = mtl_simdgroup_matrix_diagonal(0.0);
    precise vec2 fill = vec2(1.5);
    precise vec2 m[3];
    m[0] = diag;
    precise vec2 copy = fill;
    m[1] = copy;
    vec2 mtl_s1 = simdgroup_multiply(loaded, m[0], true);
    m[2] = mtl_s1;
    vec2 mtl_s2 = simdgroup_multiply_accumulate(m[0], loaded, m[1], true);
    acc = mtl_s2;
    precise f16vec2 h = f16vec2(0.25hf);
    precise f16vec2 hd = f16vec2(mtl_simdgroup_matrix_diagonal(4.0));
    precise vec2 mixed;
    vec2 mtl_s3 = simdgroup_multiply_accumulate(vec2(h), vec2(hd), loaded, true);
    mixed = mtl_s3;
    precise f16vec2 hr;
    vec2 mtl_s4 = simdgroup_multiply(vec2(hd), vec2(h), true);
    hr = f16vec2(mtl_s4);
    {
        out_[o + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = diag[0];
        out_[o + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = diag[1];
    }
    {
        out_[o + 64u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = m[1][0];
        out_[o + 64u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = m[1][1];
    }
    {
        out_[o + 128u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = m[2][0];
        out_[o + 128u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = m[2][1];
    }
    {
        out_[o + 192u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = acc[0];
        out_[o + 192u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = acc[1];
    }
    {
        out_[o + 256u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = mixed[0];
        out_[o + 256u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = mixed[1];
    }
    precise vec2 hf = vec2(0.0);
    hf = vec2(hr);
    {
        out_[o + 320u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = hf[0];
        out_[o + 320u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = hf[1];
    }
    vec2 mtl_s5 = simdgroup_multiply(m[0], loaded, true);
    vec2 mtl_s6 = simdgroup_multiply((mtl_s5), m[0], true);
    precise vec2 chain = mtl_s6;
    {
        out_[o + 384u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = chain[0];
        out_[o + 384u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = chain[1];
    }
}
