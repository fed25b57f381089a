#version 450
// Translated by mtl2glsl 0.1.0 from library_forms.metal, kernel block_sum_float
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
precise shared float partial[64];
precise shared float shifted[64];

void store_tg_float_partial(uint shared_, uint i, float v)
{
    partial[shared_ + i] = v;
}

precise float sum_tg_float_partial(uint shared_, uint n)
{
    precise float s = 0.0;
    for (uint k = 0u; k < n; k++)
    {
        s += partial[shared_ + k];
    }
    return s;
}

precise float sum_tg_float_shifted(uint shared_, uint n)
{
    precise float s = 0.0;
    for (uint k = 0u; k < n; k++)
    {
        s += shifted[shared_ + k];
    }
    return s;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_WorkGroupID.x;
    store_tg_float_partial(0u, lid, x[gid * 64u + lid]);
    i16vec2 pos = i16vec2(lid % 2u, lid / 2u);
    shifted[lid] = float(pos.x);
    memoryBarrierShared();
    barrier();
    if (lid == 0u)
    {
        out_[gid] = sum_tg_float_partial(0u, 64u) + sum_tg_float_shifted(0u, 64u);
    }
}
