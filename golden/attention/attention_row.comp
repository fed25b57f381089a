#version 450
// Translated by mtl2glsl 0.1.0 from attention.metal, kernel attention_row
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_q { float q[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_k { float k[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_v { float v[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint rows;
    layout(offset = 20) uint keys;
    layout(offset = 24) uint head_dim;
    layout(offset = 28) float scale;
} mtl_params;

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
    uint rows = mtl_params.rows;
    uint keys = mtl_params.keys;
    uint head_dim = mtl_params.head_dim;
    float scale = mtl_params.scale;
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lane = mtl_thread_index_in_simdgroup();
    uint row = gid / 32u;
    if (row >= rows)
    {
        return;
    }
    precise float qv[4];
    precise float acc[4];
    for (uint c = 0u; c < 4u; c++)
    {
        uint d = lane + 32u * c;
        qv[c] = d < head_dim ? q[row * head_dim + d] : 0.0;
        acc[c] = 0.0;
    }
    precise float m = -uintBitsToFloat(0x7f800000u);
    float l = 0.0;
    for (uint j = 0u; j < keys; j++)
    {
        float partial = 0.0;
        for (uint c = 0u; c < 4u; c++)
        {
            uint d = lane + 32u * c;
            if (d < head_dim)
            {
                partial += qv[c] * k[j * head_dim + d];
            }
        }
        precise float s = simd_sum(partial) * scale;
        precise float m_new = max(m, s);
        precise float correction = exp(m - m_new);
        precise float p = exp(s - m_new);
        l = l * correction + p;
        for (uint c = 0u; c < 4u; c++)
        {
            uint d = lane + 32u * c;
            acc[c] = acc[c] * correction + (d < head_dim ? p * v[j * head_dim + d] : 0.0);
        }
        m = m_new;
    }
    for (uint c = 0u; c < 4u; c++)
    {
        uint d = lane + 32u * c;
        if (d < head_dim)
        {
            out_[row * head_dim + d] = acc[c] / l;
        }
    }
}
