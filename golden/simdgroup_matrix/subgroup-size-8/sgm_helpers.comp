#version 450
// Translated by mtl2glsl 0.1.0 from simdgroup_matrix.metal, kernel sgm_helpers
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

struct Tile
{
    vec2 m[2];
    float scale;
};

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

void mma(inout vec2 d, vec2 a, vec2 b, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    vec2 mtl_s1 = simdgroup_multiply_accumulate(a, b, d, mtl_live);
    if (mtl_live)
    {
        d = mtl_s1;
    }
}

precise vec2 twice(vec2 m, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    vec2 mtl_ret;
    vec2 r;
    if (mtl_live)
    {
    }
    vec2 mtl_s2 = simdgroup_multiply(m, mtl_simdgroup_matrix_diagonal(2.0), mtl_live);
    if (mtl_live)
    {
        r = mtl_s2;
    }
    if (mtl_live)
    {
        mtl_ret = r;
        mtl_live = false;
    }
    return mtl_ret;
}

void mma_frags(inout vec2 d, inout vec2 a, inout vec2 b, inout vec2 c, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    vec2 dm;
    vec2 am;
    vec2 bm;
    vec2 cm;
    if (mtl_live)
    {
        am = a;
        bm = b;
        cm = c;
    }
    vec2 mtl_s3 = simdgroup_multiply_accumulate(am, bm, cm, mtl_live);
    if (mtl_live)
    {
        dm = mtl_s3;
    }
    if (mtl_live)
    {
        d = dm;
    }
}

void main()
{
    uint tid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint g = tid / 32u;
    precise vec2 x;
    x = vec2(in_[64u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)], in_[64u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)]);
    precise vec2 d = x;
    mma(d, x, x, true);
    {
        out_[256u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = d[0];
        out_[256u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = d[1];
    }
    {
        vec2 mtl_s5 = twice(x, true);
        precise vec2 mtl_matrix = mtl_s5;
        out_[256u * g + 64u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = mtl_matrix[0];
        out_[256u * g + 64u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = mtl_matrix[1];
    }
    precise vec2 fx = x;
    precise vec2 fd;
    mma_frags(fd, fx, fx, fx, true);
    precise vec2 back;
    back = fd;
    {
        out_[256u * g + 192u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = back[0];
        out_[256u * g + 192u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = back[1];
    }
    bool mtl_c7 = g < 64u;
    {
        Tile t;
        if (mtl_c7)
        {
            t.scale = 3.0;
            t.m[0] = x;
            t.m[1] = mtl_simdgroup_matrix_diagonal(t.scale);
        }
        vec2 mtl_s8 = simdgroup_multiply(t.m[0], t.m[1], mtl_c7);
        if (mtl_c7)
        {
            t.m[0] = mtl_s8;
        }
        {
            vec2 mtl_s9 = twice(t.m[0], mtl_c7);
            vec2 mtl_s10 = simdgroup_multiply(mtl_s9, mtl_simdgroup_matrix_diagonal(0.5), mtl_c7);
            vec2 mtl_matrix;
            if (mtl_c7)
            {
                mtl_matrix = mtl_s10;
            }
            if (mtl_c7)
            {
                out_[256u * g + 128u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = mtl_matrix[0];
                out_[256u * g + 128u + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = mtl_matrix[1];
            }
        }
    }
}
