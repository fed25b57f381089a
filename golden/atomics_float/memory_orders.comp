#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel memory_orders
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

layout(std430, set = 0, binding = 0) nonprivate buffer mtl_buffer_c { uint c[]; };
layout(std430, set = 0, binding = 1) writeonly nonprivate buffer mtl_buffer_out_ { uint out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared int t;

uint mtl_cas_uint; // atomic_compare_exchange_weak_explicit: the value found

void main()
{
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationIndex;
    uint size = gl_WorkGroupSize.x;
    if (lid == 0u)
    {
        atomicExchange(t, 0);
    }
    memoryBarrierShared();
    barrier();
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
    memoryBarrier(gl_ScopeInvocation, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    atomicStore(c[0], 3u, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    uint v = atomicLoad(c[1], gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
    int slot = atomicAdd(t, 1, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    uint expected = 0u;
    if ((mtl_cas_uint = atomicCompSwap(c[2], expected, v, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsAcquire | gl_SemanticsMakeVisible)) == expected || (expected = mtl_cas_uint, false))
    {
        atomicAdd(c[3], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    }
    out_[i] = v + (uint(slot) < size ? 0u : 1000u);
}
