#version 450
// Translated by mtl2glsl 0.1.0 from fc_bias.metal, kernel matvec

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { float w[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_bias { float bias[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint cols;
} mtl_params;

layout(constant_id = 100) const bool has_bias = false; // [[function_constant(0)]]
layout(constant_id = 102) const int activation = 0; // [[function_constant(1)]]
layout(constant_id = 104) const float out_scale = 0.0; // [[function_constant(2)]]
layout(constant_id = 105) const bool mtl_defined_out_scale = false; // [[is_function_constant_defined(2)]]

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint cols = mtl_params.cols;
    uint row = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint k = 0u; k < cols; k++)
    {
        acc += w[row * cols + k] * x[k];
    }
    if (has_bias)
    {
        acc += bias[row];
    }
    if (activation == 1)
    {
        acc = max(acc, 0.0);
    }
    if (mtl_defined_out_scale)
    {
        acc *= out_scale;
    }
    y[row] = acc;
}
