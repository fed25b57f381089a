#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel narrow_bits
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { uint16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { i8vec2 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { ivec4 out_[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out8 { i8vec4 out8[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    const uint16_t x = a[i];
    out_[i] = ivec4(uint16_t(15 - findMSB(uint(uint16_t(x)))), uint16_t(min(uint(findLSB(uint(uint16_t(x)))), 16u)), uint16_t(bitCount(uint(uint16_t(x)))), int(int16_t(15 - findMSB(uint(uint16_t(int16_t(x)))))));
    out8[i] = i8vec4(i8vec2(7 - findMSB(uvec2(u8vec2(b[i])))), i8vec2(min(uvec2(findLSB(uvec2(u8vec2(b[i])))), 8u)) + i8vec2(bitCount(uvec2(u8vec2(b[i])))) * i8vec2(16));
}
