#version 450
// Translated by mtl2glsl 0.1.0 from simdgroup_matrix.metal, kernel sgm_copy
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

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

struct Place
{
    uint stride;
    uvec2 origin;
    uint8_t transpose;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src { float src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_dst { precise float dst[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) Place from;
    layout(offset = 40) Place via;
    layout(offset = 64) Place to;
} mtl_params;

// Threadgroup memory.
precise shared float tile[576];

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

// Where this lane's element k of a matrix at origin (column, row) lies, its rows elements_per_row apart
// (transposed: its columns).
uint mtl_simdgroup_matrix_index(uint elements_per_row, uvec2 origin, bool transpose_matrix, uint k)
{
    uvec2 at = origin + mtl_simdgroup_matrix_coord(mtl_thread_index_in_simdgroup()) + uvec2(k, 0u);
    return transpose_matrix ? at.x * elements_per_row + at.y : at.y * elements_per_row + at.x;
}

void main()
{
    Place from = mtl_params.from;
    Place via = mtl_params.via;
    Place to = mtl_params.to;
    uint16_t tid = uint16_t(gl_LocalInvocationIndex);
    for (uint i = uint(tid); i < uint(24 * 24); i += 32u)
    {
        tile[i] = -1.0;
    }
    memoryBarrierShared();
    barrier();
    precise vec2 m;
    m = vec2(src[mtl_simdgroup_matrix_index(from.stride, from.origin, bool(from.transpose), 0u)], src[mtl_simdgroup_matrix_index(from.stride, from.origin, bool(from.transpose), 1u)]);
    {
        tile[mtl_simdgroup_matrix_index(via.stride, via.origin, bool(via.transpose), 0u)] = m[0];
        tile[mtl_simdgroup_matrix_index(via.stride, via.origin, bool(via.transpose), 1u)] = m[1];
    }
    memoryBarrierShared();
    barrier();
    precise vec2 back;
    back = vec2(tile[mtl_simdgroup_matrix_index(via.stride, via.origin, bool(via.transpose), 0u)], tile[mtl_simdgroup_matrix_index(via.stride, via.origin, bool(via.transpose), 1u)]);
    {
        dst[mtl_simdgroup_matrix_index(to.stride, to.origin, bool(to.transpose), 0u)] = back[0];
        dst[mtl_simdgroup_matrix_index(to.stride, to.origin, bool(to.transpose), 1u)] = back[1];
    }
}
