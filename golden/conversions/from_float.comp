#version 450
// Translated by mtl2glsl 0.1.0 from conversions.metal, kernel from_float
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_f { float f[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_h { precise float16_t h[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_iv { int iv[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_u { uint u[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_s { int16_t s[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_c { int8_t c[]; };
layout(std430, set = 0, binding = 6) writeonly buffer mtl_buffer_sat { precise float sat[]; };
layout(std430, set = 0, binding = 7) writeonly buffer mtl_buffer_hsat { precise float16_t hsat[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

float mtl_saturate(float x) { return clamp(x, 0.0, 1.0); }

float16_t mtl_saturate(float16_t x) { return float16_t(mtl_saturate(float(x))); }

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise float x = f[i];
    h[i] = float16_t(x);
    iv[i] = int(clamp(x, -2.1474836e+09, 2.1474835e+09));
    u[i] = uint(clamp(abs(x), 0.0, 4.294967e+09));
    s[i] = int16_t(clamp(x, -32768.0, 32767.0));
    c[i] = int8_t(clamp(x, -128.0, 127.0));
    sat[i] = mtl_saturate(x);
    hsat[i] = mtl_saturate(float16_t(x * 0.001));
}
