#version 450
// Translated by mtl2glsl 0.1.0 from bitcast.metal, kernel bits16
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { uint16_t w[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_s_in { int16_t s_in[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_h_in { float16_t h_in[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_b_in { uint16_t b_in[]; };
layout(std430, set = 0, binding = 4) readonly buffer mtl_buffer_c_in { i8vec2 c_in[]; };
layout(std430, set = 0, binding = 5) readonly buffer mtl_buffer_uc_in { u8vec2 uc_in[]; };
layout(std430, set = 0, binding = 6) writeonly buffer mtl_buffer_s { int16_t s[]; };
layout(std430, set = 0, binding = 7) writeonly buffer mtl_buffer_h { precise float16_t h[]; };
layout(std430, set = 0, binding = 8) writeonly buffer mtl_buffer_b { precise uint16_t b[]; };
layout(std430, set = 0, binding = 9) writeonly buffer mtl_buffer_c { i8vec2 c[]; };
layout(std430, set = 0, binding = 10) writeonly buffer mtl_buffer_uc { u8vec2 uc[]; };
layout(std430, set = 0, binding = 11) writeonly buffer mtl_buffer_to_word { uint16_t to_word[]; };
layout(std430, set = 0, binding = 12) writeonly buffer mtl_buffer_pairs { uint16_t pairs[]; };

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
    uint n = mtl_params.mtl_threads_per_grid.x;
    uint16_t x = w[i];
    s[i] = int16_t(x);
    h[i] = uint16BitsToFloat16(x);
    b[i] = x;
    c[i] = i8vec2(unpack8(x));
    uc[i] = unpack8(x);
    to_word[0u * n + i] = uint16_t(s_in[i]);
    to_word[1u * n + i] = float16BitsToUint16(h_in[i]);
    to_word[2u * n + i] = b_in[i];
    to_word[3u * n + i] = pack16(u8vec2(c_in[i]));
    to_word[4u * n + i] = pack16(uc_in[i]);
    uint k = 0u;
    {
        uint16_t a = x;
        pairs[k++ * n + i] = a;
        pairs[k++ * n + i] = uint16_t(int16_t(a));
        pairs[k++ * n + i] = float16BitsToUint16(uint16BitsToFloat16(a));
        pairs[k++ * n + i] = a;
        pairs[k++ * n + i] = pack16(u8vec2(i8vec2(unpack8(a))));
        pairs[k++ * n + i] = pack16(unpack8(a));
    }
    {
        int16_t a = int16_t(x);
        pairs[k++ * n + i] = uint16_t(a);
        pairs[k++ * n + i] = uint16_t(a);
        pairs[k++ * n + i] = float16BitsToUint16(int16BitsToFloat16(a));
        pairs[k++ * n + i] = uint16_t(a);
        pairs[k++ * n + i] = pack16(u8vec2(i8vec2(unpack8(uint16_t(a)))));
        pairs[k++ * n + i] = pack16(unpack8(uint16_t(a)));
    }
    {
        precise float16_t a = uint16BitsToFloat16(x);
        pairs[k++ * n + i] = float16BitsToUint16(a);
        pairs[k++ * n + i] = uint16_t(float16BitsToInt16(a));
        pairs[k++ * n + i] = float16BitsToUint16(a);
        pairs[k++ * n + i] = float16BitsToUint16(a);
        pairs[k++ * n + i] = pack16(u8vec2(i8vec2(unpack8(float16BitsToUint16(a)))));
        pairs[k++ * n + i] = pack16(unpack8(float16BitsToUint16(a)));
    }
    {
        precise uint16_t a = x;
        pairs[k++ * n + i] = a;
        pairs[k++ * n + i] = uint16_t(int16_t(a));
        pairs[k++ * n + i] = float16BitsToUint16(uint16BitsToFloat16(a));
        pairs[k++ * n + i] = a;
        pairs[k++ * n + i] = pack16(u8vec2(i8vec2(unpack8(a))));
        pairs[k++ * n + i] = pack16(unpack8(a));
    }
    {
        i8vec2 a = i8vec2(unpack8(x));
        pairs[k++ * n + i] = pack16(u8vec2(a));
        pairs[k++ * n + i] = uint16_t(int16_t(pack16(u8vec2(a))));
        pairs[k++ * n + i] = float16BitsToUint16(uint16BitsToFloat16(pack16(u8vec2(a))));
        pairs[k++ * n + i] = pack16(u8vec2(a));
        pairs[k++ * n + i] = pack16(u8vec2(a));
        pairs[k++ * n + i] = pack16(u8vec2(a));
    }
    {
        u8vec2 a = unpack8(x);
        pairs[k++ * n + i] = pack16(a);
        pairs[k++ * n + i] = uint16_t(int16_t(pack16(a)));
        pairs[k++ * n + i] = float16BitsToUint16(uint16BitsToFloat16(pack16(a)));
        pairs[k++ * n + i] = pack16(a);
        pairs[k++ * n + i] = pack16(u8vec2(i8vec2(a)));
        pairs[k++ * n + i] = pack16(a);
    }
}
