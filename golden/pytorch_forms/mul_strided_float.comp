#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel mul_strided_float
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_output_ { int8_t output_[]; };
layout(std430, set = 0, binding = 0) buffer mtl_buffer_output__as_float { precise float output__as_float[]; }; // 'output' read as float
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_input_ { int8_t input_[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_input__as_float { float input__as_float[]; }; // 'input' read as float
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_other { int8_t other[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_other_as_float { float other_as_float[]; }; // 'other' read as float

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int64_t input_stride;
    layout(offset = 24) int64_t other_stride;
} mtl_params;

uint ref_at_offs_float_input_(uint ptr, int64_t offs)
{
    return (ptr + uint(offs)) / 4u;
}

uint ref_at_offs_float_other(uint ptr, int64_t offs)
{
    return (ptr + uint(offs)) / 4u;
}

uint ref_at_offs_float_output_(uint ptr, int64_t offs)
{
    return (ptr + uint(offs)) / 4u;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int64_t input_stride = mtl_params.input_stride;
    int64_t other_stride = mtl_params.other_stride;
    uint index = gl_GlobalInvocationID.x;
    precise const float a = input__as_float[ref_at_offs_float_input_(0u, int64_t(index) * input_stride)];
    precise const float b = other_as_float[ref_at_offs_float_other(0u, int64_t(index) * other_stride)];
    output__as_float[ref_at_offs_float_output_(0u, int64_t(uint64_t(index) * 4ul))] = a * b;
    output__as_float[ref_at_offs_float_output_(0u, int64_t(uint64_t(index) * 4ul))] += 1.0;
}
