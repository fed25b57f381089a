#version 450
// Translated by mtl2glsl 0.1.0 from writes.metal, kernel strided_copy
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_output_ { precise float output_[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_input_ { float input_[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_sizes { int64_t sizes[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_input_strides { int64_t input_strides[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint ndim;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

void pos_from_thread_index_int_sizes(int idx, inout int pos[4], uint sizes_p, uint ndim)
{
    for (uint i = 0u; i < ndim; ++i)
    {
        pos[i] = mtl_rem(idx, int(sizes[sizes_p + i]));
        idx /= int(sizes[sizes_p + i]);
    }
}

int offset_from_coord_int_input_strides(int idx[4], uint strides, uint ndim)
{
    int rc = 0;
    for (uint i = 0u; i < ndim; ++i)
    {
        rc += idx[i] * int(input_strides[strides + i]);
    }
    return rc;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint ndim = mtl_params.ndim;
    uint index = gl_GlobalInvocationID.x;
    int pos[4];
    pos_from_thread_index_int_sizes(int(index), pos, 0u, ndim);
    output_[index] = input_[offset_from_coord_int_input_strides(pos, 0u, ndim)];
}
