#version 450
// Translated by mtl2glsl 0.1.0 from layernorm.metal, kernel layernorm
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
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_gamma { float gamma[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_beta { float beta[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint dim;
    layout(offset = 20) float eps;
} mtl_params;

// Threadgroup memory.
precise shared float partial[32];
precise shared float stats[2];

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
    uint dim = mtl_params.dim;
    float eps = mtl_params.eps;
    uint row = gl_WorkGroupID.x;
    uint tid = gl_LocalInvocationIndex;
    uint threads = gl_WorkGroupSize.x;
    uint lane = mtl_thread_index_in_simdgroup();
    uint simd_group = mtl_simdgroup_index_in_threadgroup();
    uint simd_groups = ((mtl_threadgroup_total + 31u) / 32u);
    float sum = 0.0;
    for (uint i = tid; i < dim; i += threads)
    {
        sum += x[row * dim + i];
    }
    sum = simd_sum(sum);
    if (lane == 0u)
    {
        partial[simd_group] = sum;
    }
    memoryBarrierShared();
    barrier();
    if (simd_group == 0u)
    {
        precise float t = lane < simd_groups ? partial[lane] : 0.0;
        t = simd_sum(t);
        if (lane == 0u)
        {
            stats[0] = t / float(dim);
        }
    }
    memoryBarrierShared();
    barrier();
    precise float mean = stats[0];
    float sq = 0.0;
    for (uint i = tid; i < dim; i += threads)
    {
        precise float d = x[row * dim + i] - mean;
        sq += d * d;
    }
    sq = simd_sum(sq);
    if (lane == 0u)
    {
        partial[simd_group] = sq;
    }
    memoryBarrierShared();
    barrier();
    if (simd_group == 0u)
    {
        precise float t = lane < simd_groups ? partial[lane] : 0.0;
        t = simd_sum(t);
        if (lane == 0u)
        {
            stats[1] = inversesqrt(t / float(dim) + eps);
        }
    }
    memoryBarrierShared();
    barrier();
    precise float inv_std = stats[1];
    for (uint i = tid; i < dim; i += threads)
    {
        y[row * dim + i] = (x[row * dim + i] - mean) * inv_std * gamma[i] + beta[i];
    }
}
