#version 450
// Translated by mtl2glsl 0.1.0 from c10_ops.metal, kernel neg_half
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_input_ { float16_t input_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_output_ { precise float16_t output_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float16_t neg_functor_operator_call_half(float16_t x)
{
    return -x;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint index = gl_GlobalInvocationID.x;
    output_[index] = neg_functor_operator_call_half(input_[index]);
}
