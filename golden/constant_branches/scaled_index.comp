#version 450
// Translated by mtl2glsl 0.1.0 from constant_branches.metal, kernel scaled_index

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
layout(std430, set = 0, binding = 1) buffer mtl_buffer_out_ { precise float out_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_idx { uint out_idx[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared uint idx[64];

void copy_block_1_in__out__idx(uint in_p, uint out_p, uint idx_p, uint i, uint lid)
{
    out_[out_p + i] = 2.0 * in_[in_p + i];
    {
        idx[idx_p + lid] = i * 3u + 1u;
    }
}

void main()
{
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationID.x;
    {
        copy_block_1_in__out__idx(0u, 0u, 0u, i, lid);
        out_idx[i] = idx[lid];
    }
    if (2 > 1 && i % 2u == 0u)
    {
        out_[i] += 1.0;
    }
}
