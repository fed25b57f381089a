#version 450
// Translated by mtl2glsl 0.1.0 from numeric_types.metal, kernel small_ints
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_c { int8_t c[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_u { uint8_t u[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_s { int16_t s[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_c_out { int8_t c_out[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_s_out { uint16_t s_out[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_l_out { int64_t l_out[]; };

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
    int8_t a = c[i];
    uint8_t b = u[i];
    c_out[i] = int8_t(int(a) * 3 + int(int8_t(b)));
    s_out[i] = uint16_t(int(uint16_t(s[i])) * 7 + int(uint16_t(b)));
    int64_t big = int64_t(s[i]) * 100000l * int64_t(b);
    l_out[i] = big + int64_t(a);
}
