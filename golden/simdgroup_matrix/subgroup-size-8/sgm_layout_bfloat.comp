#version 450
// Translated by mtl2glsl 0.1.0 from simdgroup_matrix.metal, kernel sgm_layout_bfloat
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { uint16_t in_[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_stored { precise uint16_t stored[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_elems { precise uint16_t elems[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// bfloat: the upper 16 bits of a float, rounded to nearest even; NaN stays a quiet NaN.
float mtl_bf16_to_float(uint16_t b)
{
    return uintBitsToFloat(uint(b) << 16);
}

uint16_t mtl_float_to_bf16(float f)
{
    uint u = floatBitsToUint(f);
    if (isnan(f))
        return uint16_t((u >> 16) | 0x40u);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

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

void main()
{
    uint tid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint16_t lane = uint16_t(mtl_thread_index_in_simdgroup());
    uint g = tid / 32u;
    precise u16vec2 m;
    m[0] = mtl_float_to_bf16(float(int(lane) * 2) + 64.0 * float(g));
    m[1] = mtl_float_to_bf16(float(int(lane) * 2 + 1) + 64.0 * float(g));
    {
        stored[64u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)] = m[0];
        stored[64u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)] = m[1];
    }
    precise u16vec2 n;
    n = u16vec2(in_[64u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 0u)], in_[64u * g + mtl_simdgroup_matrix_index(8u, uvec2(0u), false, 1u)]);
    elems[2u * tid] = n[0];
    elems[2u * tid + 1u] = n.y;
}
