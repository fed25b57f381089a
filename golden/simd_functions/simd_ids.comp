#version 450
// Translated by mtl2glsl 0.1.0 from simd_functions.metal, kernel simd_ids
#extension GL_KHR_shader_subgroup_basic : require

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

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_out_ { uint out_[]; };

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

void main()
{
    uvec2 gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).xy;
    uvec2 grid = mtl_params.mtl_threads_per_grid.xy;
    uint tid = gl_LocalInvocationIndex;
    uvec2 threads = gl_WorkGroupSize.xy;
    uvec2 dispatch_threads = mtl_threads_per_threadgroup_full.xy;
    uvec2 groups = ((mtl_params.mtl_threads_per_grid + mtl_threads_per_threadgroup_full - 1u) / mtl_threads_per_threadgroup_full).xy;
    uint lane = mtl_thread_index_in_simdgroup();
    uint simd_group = mtl_simdgroup_index_in_threadgroup();
    uint simd_width = 32u;
    uint simd_groups = ((mtl_threadgroup_total + 31u) / 32u);
    uint dispatch_simd_groups = ((mtl_threadgroup_full_total + 31u) / 32u);
    uint execution_width = 32u;
    uint quad_lane = (gl_LocalInvocationIndex & 3u);
    uint quad_group = (gl_LocalInvocationIndex >> 2u);
    uint quad_groups = ((mtl_threadgroup_total + 3u) / 4u);
    uint dispatch_quad_groups = ((mtl_threadgroup_full_total + 3u) / 4u);
    uint o = (gid.y * grid.x + gid.x) * 14u;
    out_[o + 0u] = tid;
    out_[o + 1u] = threads.x * 1000u + threads.y;
    out_[o + 2u] = dispatch_threads.x * 1000u + dispatch_threads.y;
    out_[o + 3u] = groups.x * 1000u + groups.y;
    out_[o + 4u] = lane;
    out_[o + 5u] = simd_group;
    out_[o + 6u] = simd_width;
    out_[o + 7u] = simd_groups;
    out_[o + 8u] = dispatch_simd_groups;
    out_[o + 9u] = execution_width;
    out_[o + 10u] = quad_lane;
    out_[o + 11u] = quad_group;
    out_[o + 12u] = quad_groups;
    out_[o + 13u] = dispatch_quad_groups;
}
