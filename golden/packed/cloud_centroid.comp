#version 450
// Translated by mtl2glsl 0.1.0 from packed.metal, kernel cloud_centroid
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_scalar_block_layout : require

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

struct Seen
{
    vec3 at;
    uint8_t near;
};

layout(scalar, set = 0, binding = 0) readonly buffer mtl_buffer_pos { vec3 pos[]; };
layout(scalar, set = 0, binding = 1) writeonly buffer mtl_buffer_centroid_ { precise vec3 centroid_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_any_near { uint8_t any_near; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_near_count { uint8_t near_count[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
precise shared vec3 tile[32];
precise shared Seen seen[32];

void main()
{
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_WorkGroupID.x;
    tile[lid] = pos[i];
    seen[lid].at = pos[i];
    seen[lid].near = uint8_t(dot(vec3(pos[i]), vec3(pos[i])) < 4.0);
    if (bool(seen[lid].near))
    {
        any_near = uint8_t(true);
    }
    memoryBarrierShared();
    barrier();
    if (lid == 0u)
    {
        precise vec3 s = vec3(0.0);
        uint8_t n = uint8_t(0);
        for (uint k = 0u; k < 32u; k++)
        {
            s += tile[k];
            n = uint8_t(n + (bool(seen[k].near) ? 1 : 0));
        }
        centroid_[gid] = s / 32.0;
        near_count[gid] = n;
    }
}
