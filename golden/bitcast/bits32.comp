#version 450
// Translated by mtl2glsl 0.1.0 from bitcast.metal, kernel bits32
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { uint w[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_i_in { int i_in[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_f_in { float f_in[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_h_in { f16vec2 h_in[]; };
layout(std430, set = 0, binding = 4) readonly buffer mtl_buffer_s_in { i16vec2 s_in[]; };
layout(std430, set = 0, binding = 5) readonly buffer mtl_buffer_us_in { u16vec2 us_in[]; };
layout(std430, set = 0, binding = 6) readonly buffer mtl_buffer_c_in { i8vec4 c_in[]; };
layout(std430, set = 0, binding = 7) readonly buffer mtl_buffer_uc_in { u8vec4 uc_in[]; };
layout(std430, set = 0, binding = 8) writeonly buffer mtl_buffer_iv { int iv[]; };
layout(std430, set = 0, binding = 9) writeonly buffer mtl_buffer_f { precise float f[]; };
layout(std430, set = 0, binding = 10) writeonly buffer mtl_buffer_h { precise f16vec2 h[]; };
layout(std430, set = 0, binding = 11) writeonly buffer mtl_buffer_s { i16vec2 s[]; };
layout(std430, set = 0, binding = 12) writeonly buffer mtl_buffer_us { u16vec2 us[]; };
layout(std430, set = 0, binding = 13) writeonly buffer mtl_buffer_c { i8vec4 c[]; };
layout(std430, set = 0, binding = 14) writeonly buffer mtl_buffer_uc { u8vec4 uc[]; };
layout(std430, set = 0, binding = 15) writeonly buffer mtl_buffer_to_word { uint to_word[]; };
layout(std430, set = 0, binding = 16) writeonly buffer mtl_buffer_pairs { uint pairs[]; };

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
    uint x = w[i];
    iv[i] = int(x);
    f[i] = uintBitsToFloat(x);
    h[i] = unpackFloat2x16(x);
    s[i] = i16vec2(unpack16(x));
    us[i] = unpack16(x);
    c[i] = i8vec4(unpack8(x));
    uc[i] = unpack8(x);
    to_word[0u * n + i] = uint(i_in[i]);
    to_word[1u * n + i] = floatBitsToUint(f_in[i]);
    to_word[2u * n + i] = packFloat2x16(h_in[i]);
    to_word[3u * n + i] = pack32(u16vec2(s_in[i]));
    to_word[4u * n + i] = pack32(us_in[i]);
    to_word[5u * n + i] = pack32(u8vec4(c_in[i]));
    to_word[6u * n + i] = pack32(uc_in[i]);
    uint k = 0u;
    {
        uint a = x;
        pairs[k++ * n + i] = a;
        pairs[k++ * n + i] = uint(int(a));
        pairs[k++ * n + i] = floatBitsToUint(uintBitsToFloat(a));
        pairs[k++ * n + i] = packFloat2x16(unpackFloat2x16(a));
        pairs[k++ * n + i] = pack32(u16vec2(i16vec2(unpack16(a))));
        pairs[k++ * n + i] = pack32(unpack16(a));
        pairs[k++ * n + i] = pack32(u8vec4(i8vec4(unpack8(a))));
        pairs[k++ * n + i] = pack32(unpack8(a));
        pairs[k++ * n + i] = pack32(unpack16(a));
    }
    {
        int a = int(x);
        pairs[k++ * n + i] = uint(a);
        pairs[k++ * n + i] = uint(a);
        pairs[k++ * n + i] = floatBitsToUint(intBitsToFloat(a));
        pairs[k++ * n + i] = packFloat2x16(unpackFloat2x16(uint(a)));
        pairs[k++ * n + i] = pack32(u16vec2(i16vec2(unpack16(uint(a)))));
        pairs[k++ * n + i] = pack32(unpack16(uint(a)));
        pairs[k++ * n + i] = pack32(u8vec4(i8vec4(unpack8(uint(a)))));
        pairs[k++ * n + i] = pack32(unpack8(uint(a)));
        pairs[k++ * n + i] = pack32(unpack16(uint(a)));
    }
    {
        precise float a = uintBitsToFloat(x);
        pairs[k++ * n + i] = floatBitsToUint(a);
        pairs[k++ * n + i] = uint(floatBitsToInt(a));
        pairs[k++ * n + i] = floatBitsToUint(a);
        pairs[k++ * n + i] = packFloat2x16(unpackFloat2x16(floatBitsToUint(a)));
        pairs[k++ * n + i] = pack32(u16vec2(i16vec2(unpack16(floatBitsToUint(a)))));
        pairs[k++ * n + i] = pack32(unpack16(floatBitsToUint(a)));
        pairs[k++ * n + i] = pack32(u8vec4(i8vec4(unpack8(floatBitsToUint(a)))));
        pairs[k++ * n + i] = pack32(unpack8(floatBitsToUint(a)));
        pairs[k++ * n + i] = pack32(unpack16(floatBitsToUint(a)));
    }
    {
        precise f16vec2 a = unpackFloat2x16(x);
        pairs[k++ * n + i] = packFloat2x16(a);
        pairs[k++ * n + i] = uint(int(packFloat2x16(a)));
        pairs[k++ * n + i] = floatBitsToUint(uintBitsToFloat(packFloat2x16(a)));
        pairs[k++ * n + i] = packFloat2x16(a);
        pairs[k++ * n + i] = pack32(u16vec2(float16BitsToInt16(a)));
        pairs[k++ * n + i] = pack32(float16BitsToUint16(a));
        pairs[k++ * n + i] = pack32(u8vec4(i8vec4(unpack8(packFloat2x16(a)))));
        pairs[k++ * n + i] = pack32(unpack8(packFloat2x16(a)));
        pairs[k++ * n + i] = pack32(float16BitsToUint16(a));
    }
    {
        i16vec2 a = i16vec2(unpack16(x));
        pairs[k++ * n + i] = pack32(u16vec2(a));
        pairs[k++ * n + i] = uint(int(pack32(u16vec2(a))));
        pairs[k++ * n + i] = floatBitsToUint(uintBitsToFloat(pack32(u16vec2(a))));
        pairs[k++ * n + i] = packFloat2x16(int16BitsToFloat16(a));
        pairs[k++ * n + i] = pack32(u16vec2(a));
        pairs[k++ * n + i] = pack32(u16vec2(a));
        pairs[k++ * n + i] = pack32(u8vec4(i8vec4(unpack8(pack32(u16vec2(a))))));
        pairs[k++ * n + i] = pack32(unpack8(pack32(u16vec2(a))));
        pairs[k++ * n + i] = pack32(u16vec2(a));
    }
    {
        u16vec2 a = unpack16(x);
        pairs[k++ * n + i] = pack32(a);
        pairs[k++ * n + i] = uint(int(pack32(a)));
        pairs[k++ * n + i] = floatBitsToUint(uintBitsToFloat(pack32(a)));
        pairs[k++ * n + i] = packFloat2x16(uint16BitsToFloat16(a));
        pairs[k++ * n + i] = pack32(u16vec2(i16vec2(a)));
        pairs[k++ * n + i] = pack32(a);
        pairs[k++ * n + i] = pack32(u8vec4(i8vec4(unpack8(pack32(a)))));
        pairs[k++ * n + i] = pack32(unpack8(pack32(a)));
        pairs[k++ * n + i] = pack32(a);
    }
    {
        i8vec4 a = i8vec4(unpack8(x));
        pairs[k++ * n + i] = pack32(u8vec4(a));
        pairs[k++ * n + i] = uint(int(pack32(u8vec4(a))));
        pairs[k++ * n + i] = floatBitsToUint(uintBitsToFloat(pack32(u8vec4(a))));
        pairs[k++ * n + i] = packFloat2x16(unpackFloat2x16(pack32(u8vec4(a))));
        pairs[k++ * n + i] = pack32(u16vec2(i16vec2(unpack16(pack32(u8vec4(a))))));
        pairs[k++ * n + i] = pack32(unpack16(pack32(u8vec4(a))));
        pairs[k++ * n + i] = pack32(u8vec4(a));
        pairs[k++ * n + i] = pack32(u8vec4(a));
        pairs[k++ * n + i] = pack32(unpack16(pack32(u8vec4(a))));
    }
    {
        u8vec4 a = unpack8(x);
        pairs[k++ * n + i] = pack32(a);
        pairs[k++ * n + i] = uint(int(pack32(a)));
        pairs[k++ * n + i] = floatBitsToUint(uintBitsToFloat(pack32(a)));
        pairs[k++ * n + i] = packFloat2x16(unpackFloat2x16(pack32(a)));
        pairs[k++ * n + i] = pack32(u16vec2(i16vec2(unpack16(pack32(a)))));
        pairs[k++ * n + i] = pack32(unpack16(pack32(a)));
        pairs[k++ * n + i] = pack32(u8vec4(i8vec4(a)));
        pairs[k++ * n + i] = pack32(a);
        pairs[k++ * n + i] = pack32(unpack16(pack32(a)));
    }
    {
        precise u16vec2 a = unpack16(x);
        pairs[k++ * n + i] = pack32(a);
        pairs[k++ * n + i] = uint(int(pack32(a)));
        pairs[k++ * n + i] = floatBitsToUint(uintBitsToFloat(pack32(a)));
        pairs[k++ * n + i] = packFloat2x16(uint16BitsToFloat16(a));
        pairs[k++ * n + i] = pack32(u16vec2(i16vec2(a)));
        pairs[k++ * n + i] = pack32(a);
        pairs[k++ * n + i] = pack32(u8vec4(i8vec4(unpack8(pack32(a)))));
        pairs[k++ * n + i] = pack32(unpack8(pack32(a)));
        pairs[k++ * n + i] = pack32(a);
    }
}
