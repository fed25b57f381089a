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

// Shared memory the SIMD-group functions exchange values through.
const uint mtl_subgroup_slots = (mtl_threadgroup_total + 8u - 1u) / 8u;
shared float mtl_part_float[mtl_subgroup_slots];

// SIMD-group functions for 8-wide subgroups (emulated: 32-lane groups across the device's subgroups).
// SIMD-groups of 32 threads by local index, as Metal numbers them.
uint mtl_thread_index_in_simdgroup() { return gl_LocalInvocationIndex & 31u; }
uint mtl_simdgroup_index_in_threadgroup() { return gl_LocalInvocationIndex >> 5u; }

uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

float mtl_sg_reduce_sum(float x, bool p)
{
    return subgroupAdd(p ? x : float(0));
}

float mtl_simd_reduce_sum(float x, bool p)
{
    float part = mtl_sg_reduce_sum(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    float a = float(0);
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = (a + b);
    }
    return a;
}

float simd_sum(float x, bool mtl_p) { return mtl_simd_reduce_sum(x, mtl_p); }

void main()
{
    uint rows = mtl_params.rows;
    uint keys = mtl_params.keys;
    uint head_dim = mtl_params.head_dim;
    float scale = mtl_params.scale;
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lane = mtl_thread_index_in_simdgroup();
    bool mtl_live = true; // false once this thread has returned
    uint row = gid / 32u;
    if (row >= rows)
    {
        mtl_live = false;
    }
    float qv[4];
    float acc[4];
    float m;
    float l;
    if (mtl_live)
    {
        for (uint c = 0u; c < 4u; c++)
        {
            uint d = lane + 32u * c;
            qv[c] = d < head_dim ? q[row * head_dim + d] : 0.0;
            acc[c] = 0.0;
        }
        m = -uintBitsToFloat(0x7f800000u);
        l = 0.0;
    }
    {
        for (uint j = 0u; j < keys; j++)
        {
            float partial;
            if (mtl_live)
            {
                partial = 0.0;
                for (uint c = 0u; c < 4u; c++)
                {
                    uint d = lane + 32u * c;
                    if (d < head_dim)
                    {
                        partial += qv[c] * k[j * head_dim + d];
                    }
                }
            }
            float mtl_s1 = simd_sum(partial, mtl_live);
            float s;
            if (mtl_live)
            {
                s = mtl_s1 * scale;
            }
            float m_new;
            float correction;
            float p;
            if (mtl_live)
            {
                m_new = max(m, s);
                correction = exp(m - m_new);
                p = exp(s - m_new);
                l = l * correction + p;
                for (uint c = 0u; c < 4u; c++)
                {
                    uint d = lane + 32u * c;
                    acc[c] = acc[c] * correction + (d < head_dim ? p * v[j * head_dim + d] : 0.0);
                }
                m = m_new;
            }
        }
    }
    if (mtl_live)
    {
        for (uint c = 0u; c < 4u; c++)
        {
            uint d = lane + 32u * c;
            if (d < head_dim)
            {
                out_[row * head_dim + d] = acc[c] / l;
            }
        }
    }
}
