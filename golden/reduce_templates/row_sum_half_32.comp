#version 450
// Translated by mtl2glsl 0.1.0 from reduce_templates.metal, kernel row_sum_half_32
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float16_t in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint cols;
} mtl_params;

// Threadgroup memory.
precise shared float partial[32];

precise float Sum_float_operator_call(float a, float b)
{
    return a + b;
}

void main()
{
    uint cols = mtl_params.cols;
    uint lid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;
    float acc = 0.0;
    for (uint c = lid; c < cols; c += 32u)
    {
        acc = Sum_float_operator_call(acc, float(in_[row * cols + c]));
    }
    partial[lid] = acc;
    memoryBarrierShared();
    barrier();
    for (uint s = uint(32 / 2); s > 0u; s /= 2u)
    {
        if (lid < s)
        {
            partial[lid] = Sum_float_operator_call(partial[lid], partial[lid + s]);
        }
        memoryBarrierShared();
        barrier();
    }
    if (lid == 0u)
    {
        out_[row] = partial[0];
    }
}
