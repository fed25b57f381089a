#version 450
// Translated by mtl2glsl 0.1.0 from atomics.metal, kernel histogram256
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_data { uint8_t data[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_hist { uint hist[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint n;
} mtl_params;

// Threadgroup memory.
shared uint local_hist[256];

void main()
{
    uint n = mtl_params.n;
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationIndex;
    uint grid_threads = mtl_params.mtl_threads_per_grid.x;
    atomicExchange(local_hist[lid], 0u);
    memoryBarrierShared();
    barrier();
    for (uint i = gid; i < n; i += grid_threads)
    {
        atomicAdd(local_hist[uint(data[i])], 1u);
    }
    memoryBarrierShared();
    barrier();
    uint c = atomicAdd(local_hist[lid], 0u);
    if (c != 0u)
    {
        atomicAdd(hist[lid], c);
    }
}
