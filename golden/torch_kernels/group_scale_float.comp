#version 450
// Translated by mtl2glsl 0.1.0 from torch_kernels.metal, kernel group_scale_float

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

layout(std430, set = 0, binding = 0) buffer mtl_buffer_x { precise float x[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
precise shared float tau_shared;
precise shared vec2 range;
precise shared vec2 spare;

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint tg = gl_WorkGroupID.x;
    uint n = gl_WorkGroupSize.x;
    if (tid == 0u)
    {
        tau_shared = x[tg * n] + 0.5;
        range = vec2(tg, tg + 1u);
        spare = range * 2.0;
    }
    memoryBarrierShared();
    barrier();
    x[tg * n + tid] = x[tg * n + tid] * tau_shared + range.y + spare.x;
}
