#version 450
// Translated by mtl2glsl 0.1.0 from threadgroup_memory.metal, kernel block_argmax

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

struct Best
{
    float value;
    uint index;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_best { precise Best best[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint n;
} mtl_params;

// Threadgroup memory.
precise shared Best candidates[256];

void main()
{
    uint n = mtl_params.n;
    uint gid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint tid = gl_LocalInvocationIndex;
    uint block = gl_WorkGroupID.x;
    uint threads = gl_WorkGroupSize.x;
    barrier();
    precise Best mine;
    mine.value = gid < n ? x[gid] : -uintBitsToFloat(0x7f800000u);
    mine.index = gid;
    candidates[tid] = mine;
    memoryBarrierShared();
    barrier();
    for (uint stride = 1u; stride < threads; stride *= 2u)
    {
        if (tid % (2u * stride) == 0u && tid + stride < threads)
        {
            precise Best other = candidates[tid + stride];
            if (other.value > candidates[tid].value)
            {
                candidates[tid] = other;
            }
        }
        memoryBarrierShared();
        barrier();
    }
    if (tid == 0u)
    {
        best[block] = candidates[0];
    }
}
