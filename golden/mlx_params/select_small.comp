#version 450
// Translated by mtl2glsl 0.1.0 from mlx_params.metal, kernel select_small
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { int x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { int out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint8_t odd;
    layout(offset = 20) int16_t bias;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    bool odd = mtl_params.odd != uint8_t(0);
    int16_t bias = mtl_params.bias;
    uint i = gl_GlobalInvocationID.x;
    out_[i] = bool(odd) ? x[i] + int(bias) : x[i] - int(bias);
}
