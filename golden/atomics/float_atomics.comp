#version 450
// Translated by mtl2glsl 0.1.0 from atomics.metal, kernel float_atomics
#extension GL_EXT_shader_atomic_float : require

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
layout(std430, set = 0, binding = 1) buffer mtl_buffer_sum { float sum[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_max_bits { uint max_bits[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared float part;

uint mtl_cas_uint; // atomic_compare_exchange_weak_explicit: the value found

void main()
{
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationIndex;
    if (lid == 0u)
    {
        atomicExchange(part, 0.0);
    }
    memoryBarrierShared();
    barrier();
    atomicAdd(part, x[i]);
    memoryBarrierShared();
    barrier();
    if (lid == 0u)
    {
        atomicAdd(sum[0], atomicAdd(part, -0.0));
    }
    uint expected = atomicAdd(max_bits[0], 0u);
    while (uintBitsToFloat(expected) < x[i])
    {
        if ((mtl_cas_uint = atomicCompSwap(max_bits[0], expected, floatBitsToUint(x[i]))) == expected || (expected = mtl_cas_uint, false))
        {
            break;
        }
    }
}
