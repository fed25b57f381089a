#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel last_group_sum
#extension GL_KHR_memory_scope_semantics : require
#pragma use_vulkan_memory_model // memory orders and fences (docs/translator.md "Atomics")

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

layout(std430, set = 0, binding = 0) readonly nonprivate buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) nonprivate buffer mtl_buffer_partial { precise float partial[]; };
layout(std430, set = 0, binding = 2) nonprivate buffer mtl_buffer_done { uint done[]; };
layout(std430, set = 0, binding = 3) writeonly nonprivate buffer mtl_buffer_total { precise float total[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
precise shared float sums[64];

void main()
{
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationIndex;
    uint group = gl_WorkGroupID.x;
    uint groups = ((mtl_params.mtl_threads_per_grid + mtl_threads_per_threadgroup_full - 1u) / mtl_threads_per_threadgroup_full).x;
    sums[lid] = x[gid];
    memoryBarrierShared();
    barrier();
    for (uint s = 32u; s > 0u; s = uint(s >> 1))
    {
        if (lid < s)
        {
            sums[lid] += sums[lid + s];
        }
        memoryBarrierShared();
        barrier();
    }
    if (lid == 0u)
    {
        partial[group] = sums[0];
        memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
        uint ticket = atomicAdd(done[0], 1u);
        if (ticket == groups - 1u)
        {
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
            float t = 0.0;
            for (uint g = 0u; g < groups; g++)
            {
                t += partial[g];
            }
            total[0] = t;
        }
    }
}
