#version 450
// Translated by mtl2glsl 0.1.0 from threadgroup_memory.metal, kernel tile_transpose

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint rows;
    layout(offset = 20) uint cols;
} mtl_params;

// Threadgroup memory.
precise shared float tile[16][17];

void main()
{
    uint rows = mtl_params.rows;
    uint cols = mtl_params.cols;
    uvec2 group = gl_WorkGroupID.xy;
    uvec2 local_ = gl_LocalInvocationID.xy;
    uint x = group.x * 16u + local_.x;
    uint y = group.y * 16u + local_.y;
    tile[local_.y][local_.x] = x < cols && y < rows ? in_[y * cols + x] : 0.0;
    memoryBarrierShared();
    barrier();
    uint tx = group.y * 16u + local_.x;
    uint ty = group.x * 16u + local_.y;
    if (tx < rows && ty < cols)
    {
        out_[ty * rows + tx] = tile[local_.x][local_.y];
    }
}
