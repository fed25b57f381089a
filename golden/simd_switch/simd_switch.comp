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

float mtl_sg_reduce_max(float x, bool p)
{
    return subgroupMax(p ? x : float(uintBitsToFloat(0xff800000u)));
}

float mtl_simd_reduce_max(float x, bool p) { return mtl_sg_reduce_max(x, p); }

float simd_max(float x) { return mtl_simd_reduce_max(x, true); }

float mtl_sg_reduce_min(float x, bool p)
{
    return subgroupMin(p ? x : float(uintBitsToFloat(0x7f800000u)));
}

float mtl_simd_reduce_min(float x, bool p) { return mtl_sg_reduce_min(x, p); }

float simd_min(float x) { return mtl_simd_reduce_min(x, true); }

precise float reduce_const_constant_Params_(Params args, float v)
{
    float r = 0.0;
    switch (args.mode)
    {
    case 1:
        r = simd_sum(v);
        break;
    case 2:
        r = simd_max(v);
        break;
    default:
        r = simd_min(v);
        break;
    }
    return r;
}

void main()
{
    Params args = mtl_params.args;
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    out_[gid * 3u + 0u] = reduce_const_constant_Params_(args, a[gid]);
    float acc = 0.0;
    float hs = 0.0;
    for (int i = 0; i < 4; i++)
    {
        if (a[gid] * float(i + 1) > 2.0)
        {
            continue;
        }
        mtl_ref_float p_ref = (bool((i & 1)) ? mtl_params.a_addr : mtl_params.b_addr);
        uint p = 0u;
        acc += simd_sum(p_ref.v[p + gid]);
        uint16_t s = uint16_t(0);
        s = h[gid * 4u + uint(i)];
        hs += float(uint16BitsToFloat16(uint16_t(s)));
    }
    out_[gid * 3u + 1u] = acc;
    out_[gid * 3u + 2u] = hs;
}
