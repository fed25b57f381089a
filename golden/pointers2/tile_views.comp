#version 450
// Translated by mtl2glsl 0.1.0 from pointers2.metal, kernel tile_views

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
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
precise shared vec4 tile[32]; // float tile[128], read as float4 too
precise shared vec2 pairs[32];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    tile[lid / 4u][lid % 4u] = x[gid];
    memoryBarrierShared();
    barrier();
    if (lid < 32u)
    {
        uint t4 = lid;
        precise vec4 v = tile[t4];
        pairs[lid] = vec2(v.x + v.y, v.z * v.w);
    }
    memoryBarrierShared();
    barrier();
    uint s = 0u;
    y[gid] = pairs[(s + (lid * 5u) % 64u) / 2u][(s + (lid * 5u) % 64u) % 2u] + tile[(127u - lid) / 4u][(127u - lid) % 4u];
}
