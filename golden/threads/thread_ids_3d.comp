#version 450
// Translated by mtl2glsl 0.1.0 from threads.metal, kernel thread_ids_3d

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_out_ { uint out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// threads_per_threadgroup: a partial threadgroup at the grid's edge counts only its threads.
uvec3 mtl_threads_per_threadgroup()
{
    return min(gl_WorkGroupSize, mtl_params.mtl_threads_per_grid - gl_WorkGroupID * gl_WorkGroupSize);
}

uint mtl_thread_index_in_threadgroup()
{
    uvec3 size = mtl_threads_per_threadgroup();
    return gl_LocalInvocationID.x + size.x * (gl_LocalInvocationID.y + size.y * gl_LocalInvocationID.z);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uvec3 gid = gl_GlobalInvocationID;
    uvec3 lid = gl_LocalInvocationID;
    uvec3 group = gl_WorkGroupID;
    uvec3 grid_size = mtl_params.mtl_threads_per_grid;
    uvec3 group_size = mtl_threads_per_threadgroup();
    uvec3 groups = gl_NumWorkGroups;
    uint flat_lid = mtl_thread_index_in_threadgroup();
    uint linear = (gid.z * grid_size.y + gid.y) * grid_size.x + gid.x;
    uint o = 19u * linear;
    out_[o + 0u] = gid.x;
    out_[o + 1u] = gid.y;
    out_[o + 2u] = gid.z;
    out_[o + 3u] = lid.x;
    out_[o + 4u] = lid.y;
    out_[o + 5u] = lid.z;
    out_[o + 6u] = group.x;
    out_[o + 7u] = group.y;
    out_[o + 8u] = group.z;
    out_[o + 9u] = grid_size.x;
    out_[o + 10u] = grid_size.y;
    out_[o + 11u] = grid_size.z;
    out_[o + 12u] = group_size.x;
    out_[o + 13u] = group_size.y;
    out_[o + 14u] = group_size.z;
    out_[o + 15u] = groups.x;
    out_[o + 16u] = groups.y;
    out_[o + 17u] = groups.z;
    out_[o + 18u] = flat_lid;
}
