#version 450
// Translated by mtl2glsl 0.1.0 from strided.json, kernel custom_kernel_strided
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x_shape { int x_shape[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_x_strides { int64_t x_strides[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int x_ndim;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int x_ndim = mtl_params.x_ndim;
    uvec3 thread_position_in_grid = gl_GlobalInvocationID;
    uint elem = thread_position_in_grid.x;
    uint rest = elem;
    int64_t loc = 0l;
    for (int i = x_ndim - 1; i >= 0; i--)
    {
        loc += int64_t(rest % uint(x_shape[i])) * x_strides[i];
        rest /= uint(x_shape[i]);
    }
    out_[elem] = 2.0 * x[int(loc)];
}
