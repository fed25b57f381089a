#version 450
// Translated by mtl2glsl 0.1.0 from threads.metal, kernel thread_ids_2d

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
    uvec2 gid = gl_GlobalInvocationID.xy;
    uvec2 lid = gl_LocalInvocationID.xy;
    uvec2 group = gl_WorkGroupID.xy;
    uvec2 grid_size = mtl_params.mtl_threads_per_grid.xy;
    uvec2 group_size = mtl_threads_per_threadgroup().xy;
    uvec2 groups = gl_NumWorkGroups.xy;
    uint flat_lid = mtl_thread_index_in_threadgroup();
    uint o = 13u * (gid.y * grid_size.x + gid.x);
    out_[o + 0u] = gid.x;
    out_[o + 1u] = gid.y;
    out_[o + 2u] = lid.x;
    out_[o + 3u] = lid.y;
    out_[o + 4u] = group.x;
    out_[o + 5u] = group.y;
    out_[o + 6u] = grid_size.x;
    out_[o + 7u] = grid_size.y;
    out_[o + 8u] = group_size.x;
    out_[o + 9u] = group_size.y;
    out_[o + 10u] = groups.x;
    out_[o + 11u] = groups.y;
    out_[o + 12u] = flat_lid;
}
