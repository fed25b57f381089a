#version 450
// Translated by mtl2glsl 0.1.0 from arg_buffers.metal, kernel multi_axpy_float
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct AxpyArguments_float
{
    uint64_t xs[4]; // float*
    uint64_t ys[4]; // float*
};

struct ChunkMetadata
{
    uint64_t numels[4];
    uint64_t group_to_tensor[8];
    uint64_t group_to_chunk[8];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_args { AxpyArguments_float args; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_meta { ChunkMetadata meta; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_a { float a; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_float { float v[]; };

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

const uint kChunk = 64u;

void axpy_step_float_addr_addr(mtl_ref_float y_ref, uint y, mtl_ref_float x_ref, uint x, float a)
{
    precise float x_ = x_ref.v[x];
    y_ref.v[y] = a * x_ + y_ref.v[y];
    x_ref.v[x] = -x_;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint tid = gl_LocalInvocationID.x;
    uint group = gl_WorkGroupID.x;
    uint tptg = mtl_threads_per_threadgroup().x;
    const uint tensor = uint(meta.group_to_tensor[group]);
    const uint chunk_offset = uint(meta.group_to_chunk[group]) * kChunk;
    const uint numel = uint(meta.numels[tensor]) - chunk_offset;
    mtl_ref_float x_ref = mtl_ref_float(args.xs[int(tensor)]);
    uint x = chunk_offset;
    mtl_ref_float y_ref = mtl_ref_float(args.ys[int(tensor)]);
    uint y = chunk_offset;
    for (uint i = tid; i < numel && i < kChunk; i += tptg)
    {
        axpy_step_float_addr_addr(y_ref, y + i, x_ref, x + i, a);
    }
}
