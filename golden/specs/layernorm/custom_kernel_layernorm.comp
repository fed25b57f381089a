#version 450
// Translated by mtl2glsl 0.1.0 from layernorm.json, kernel custom_kernel_layernorm
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x_shape { int x_shape[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_w { float w[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_b { float b[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) float eps;
} mtl_params;

// Threadgroup memory.
precise shared float partial[32];

// SIMD-group functions for 32-wide subgroups (native: Metal's 32 lanes are the device's subgroup).
uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane(); }
uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id(); }

float mtl_sg_reduce_sum(float x, bool p)
{
    return subgroupAdd(p ? x : float(0));
}

float mtl_simd_reduce_sum(float x, bool p) { return mtl_sg_reduce_sum(x, p); }

float simd_sum(float x) { return mtl_simd_reduce_sum(x, true); }

void main()
{
    float eps = mtl_params.eps;
    uvec3 threadgroup_position_in_grid = gl_WorkGroupID;
    uvec3 threads_per_threadgroup = gl_WorkGroupSize;
    uint thread_index_in_threadgroup = gl_LocalInvocationIndex;
    uint thread_index_in_simdgroup = mtl_thread_index_in_simdgroup();
    uint simdgroup_index_in_threadgroup = mtl_simdgroup_index_in_threadgroup();
    uint simdgroups_per_threadgroup = ((mtl_threadgroup_total + 31u) / 32u);
    uint row = threadgroup_position_in_grid.y;
    uint tid = thread_index_in_threadgroup;
    uint threads = threads_per_threadgroup.x;
    uint lane = thread_index_in_simdgroup;
    uint sg = simdgroup_index_in_threadgroup;
    uint n_sg = simdgroups_per_threadgroup;
    uint d = uint(x_shape[1]);
    uint base = row * d;
    float s = 0.0;
    for (uint i = tid; i < d; i += threads)
    {
        s += x[base + i];
    }
    s = simd_sum(s);
    if (lane == 0u)
    {
        partial[sg] = s;
    }
    memoryBarrierShared();
    barrier();
    precise float mean = simd_sum(lane < n_sg ? partial[lane] : 0.0) / float(d);
    memoryBarrierShared();
    barrier();
    float v = 0.0;
    for (uint i = tid; i < d; i += threads)
    {
        precise float t = x[base + i] - mean;
        v += t * t;
    }
    v = simd_sum(v);
    if (lane == 0u)
    {
        partial[sg] = v;
    }
    memoryBarrierShared();
    barrier();
    precise float var = simd_sum(lane < n_sg ? partial[lane] : 0.0) / float(d);
    precise float inv = inversesqrt(var + eps);
    for (uint i = tid; i < d; i += threads)
    {
        out_[base + i] = (x[base + i] - mean) * inv * w[i] + b[i];
    }
}
