#version 450
// Translated by mtl2glsl 0.1.0 from simd_switch.metal, kernel simd_switch
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_buffer_reference : require
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

struct Params
{
    int mode;
    int n;
};

layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_a { float a[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_b { float b[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_h { uint16_t h[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_float { float v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) Params args;
    layout(offset = 24) mtl_ref_float a_addr;
    layout(offset = 32) mtl_ref_float b_addr;
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

float mtl_sg_reduce_max(float x, bool p)
{
    return subgroupMax(p ? x : float(uintBitsToFloat(0xff800000u)));
}

float mtl_simd_reduce_max(float x, bool p)
{
    float part = mtl_sg_reduce_max(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    float a = float(uintBitsToFloat(0xff800000u));
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = max(a, b);
    }
    return a;
}

float simd_max(float x, bool mtl_p) { return mtl_simd_reduce_max(x, mtl_p); }

float mtl_sg_reduce_min(float x, bool p)
{
    return subgroupMin(p ? x : float(uintBitsToFloat(0x7f800000u)));
}

float mtl_simd_reduce_min(float x, bool p)
{
    float part = mtl_sg_reduce_min(x, p);
    barrier();
    if (mtl_sg_lane() == 0u)
        mtl_part_float[mtl_sg_id()] = part;
    barrier();
    uint first = (gl_LocalInvocationIndex & ~31u) / 8u;
    uint count = min(4u, mtl_subgroup_slots - first);
    float a = float(uintBitsToFloat(0x7f800000u));
    for (uint j = 0u; j < count; j++)
    {
        float b = mtl_part_float[first + j];
        a = min(a, b);
    }
    return a;
}

float simd_min(float x, bool mtl_p) { return mtl_simd_reduce_min(x, mtl_p); }

precise float reduce_const_constant_Params_(Params args, float v, bool mtl_p)
{
    bool mtl_live = mtl_p; // false once this thread has returned, or when it did not call
    float mtl_ret;
    float r;
    if (mtl_live)
    {
        r = 0.0;
    }
    // switch (args.mode), the same case in every thread
    if ((args.mode) == 1)
    {
        float mtl_s1 = simd_sum(v, mtl_live);
        if (mtl_live)
        {
            r = mtl_s1;
        }
    }
    else if ((args.mode) == 2)
    {
        float mtl_s2 = simd_max(v, mtl_live);
        if (mtl_live)
        {
            r = mtl_s2;
        }
    }
    else
    {
        float mtl_s3 = simd_min(v, mtl_live);
        if (mtl_live)
        {
            r = mtl_s3;
        }
    }
    if (mtl_live)
    {
        mtl_ret = r;
        mtl_live = false;
    }
    return mtl_ret;
}

void main()
{
    Params args = mtl_params.args;
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    float mtl_s4 = reduce_const_constant_Params_(args, a[gid], true);
    out_[gid * 3u + 0u] = mtl_s4;
    float acc = 0.0;
    float hs = 0.0;
    {
        for (int i = 0; i < 4; i++)
        {
            bool mtl_k5 = true;
            if (mtl_k5)
            {
                if (a[gid] * float(i + 1) > 2.0)
                {
                    mtl_k5 = false;
                }
            }
            mtl_ref_float p_ref;
            uint p;
            if (mtl_k5)
            {
                p_ref = (bool((i & 1)) ? mtl_params.a_addr : mtl_params.b_addr);
                p = 0u;
            }
            float mtl_s6 = simd_sum(((mtl_k5) ? p_ref.v[p + gid] : float(0)), mtl_k5);
            if (mtl_k5)
            {
                acc += mtl_s6;
            }
            uint16_t s = uint16_t(0);
            if (mtl_k5)
            {
                s = h[gid * 4u + uint(i)];
                hs += float(uint16BitsToFloat16(uint16_t(s)));
            }
        }
    }
    out_[gid * 3u + 1u] = acc;
    out_[gid * 3u + 2u] = hs;
}
