#version 450
// Translated by mtl2glsl 0.1.0 from threadgroup_sizes.json, kernel custom_kernel_threadgroup_sizes

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
    uvec3 thread_position_in_grid = gl_GlobalInvocationID;
    uvec3 threads_per_grid = mtl_params.mtl_threads_per_grid;
    uvec3 threads_per_threadgroup = mtl_threads_per_threadgroup();
    uvec3 dispatch_threads_per_threadgroup = gl_WorkGroupSize;
    uvec3 p = thread_position_in_grid;
    uint i = (p.z * threads_per_grid.y + p.y) * threads_per_grid.x + p.x;
    out_[4u * i + 0u] = dispatch_threads_per_threadgroup.x;
    out_[4u * i + 1u] = dispatch_threads_per_threadgroup.y;
    out_[4u * i + 2u] = dispatch_threads_per_threadgroup.z;
    out_[4u * i + 3u] = threads_per_threadgroup.x * threads_per_threadgroup.y * threads_per_threadgroup.z;
}
