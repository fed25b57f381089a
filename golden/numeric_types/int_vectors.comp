#version 450
// Translated by mtl2glsl 0.1.0 from numeric_types.metal, kernel int_vectors
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_c { i8vec4 c[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_s { u16vec2 s[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_l { i64vec2 l[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_c_out { ivec4 c_out[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_s_out { u16vec2 s_out[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_l_out { i64vec2 l_out[]; };

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
    c_out[i] = ivec4(c[i]) * 2 - ivec4(c[i].wzyx);
    s_out[i] = s[i] * u16vec2(3, 5) + s[i].yx;
    l_out[i] = l[i] * i64vec2(1000000l, -3l) + i64vec2(int(i));
}
