#version 450
// Translated by mtl2glsl 0.1.0 from bitcast.metal, kernel bits64
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { uint64_t w[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_l_in { int64_t l_in[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_u_in { uvec2 u_in[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_i_in { ivec2 i_in[]; };
layout(std430, set = 0, binding = 4) readonly buffer mtl_buffer_f_in { vec2 f_in[]; };
layout(std430, set = 0, binding = 5) readonly buffer mtl_buffer_h_in { f16vec4 h_in[]; };
layout(std430, set = 0, binding = 6) readonly buffer mtl_buffer_s_in { i16vec4 s_in[]; };
layout(std430, set = 0, binding = 7) readonly buffer mtl_buffer_us_in { u16vec4 us_in[]; };
layout(std430, set = 0, binding = 8) writeonly buffer mtl_buffer_l { int64_t l[]; };
layout(std430, set = 0, binding = 9) writeonly buffer mtl_buffer_u { uvec2 u[]; };
layout(std430, set = 0, binding = 10) writeonly buffer mtl_buffer_iv { ivec2 iv[]; };
layout(std430, set = 0, binding = 11) writeonly buffer mtl_buffer_f { precise vec2 f[]; };
layout(std430, set = 0, binding = 12) writeonly buffer mtl_buffer_h { precise f16vec4 h[]; };
layout(std430, set = 0, binding = 13) writeonly buffer mtl_buffer_s { i16vec4 s[]; };
layout(std430, set = 0, binding = 14) writeonly buffer mtl_buffer_us { u16vec4 us[]; };
layout(std430, set = 0, binding = 15) writeonly buffer mtl_buffer_to_word { uint64_t to_word[]; };
layout(std430, set = 0, binding = 16) writeonly buffer mtl_buffer_pairs { uint64_t pairs[]; };

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
    uint64_t x = w[i];
    l[i] = int64_t(x);
    u[i] = unpack32(x);
    iv[i] = ivec2(unpack32(x));
    f[i] = uintBitsToFloat(unpack32(x));
    h[i] = uint16BitsToFloat16(unpack16(x));
    s[i] = i16vec4(unpack16(x));
    us[i] = unpack16(x);
    to_word[0u * n + i] = uint64_t(l_in[i]);
    to_word[1u * n + i] = pack64(u_in[i]);
    to_word[2u * n + i] = pack64(uvec2(i_in[i]));
    to_word[3u * n + i] = pack64(floatBitsToUint(f_in[i]));
    to_word[4u * n + i] = pack64(float16BitsToUint16(h_in[i]));
    to_word[5u * n + i] = pack64(u16vec4(s_in[i]));
    to_word[6u * n + i] = pack64(us_in[i]);
    uint k = 0u;
    {
        uint64_t a = x;
        pairs[k++ * n + i] = a;
        pairs[k++ * n + i] = uint64_t(int64_t(a));
        pairs[k++ * n + i] = pack64(unpack32(a));
        pairs[k++ * n + i] = pack64(uvec2(ivec2(unpack32(a))));
        pairs[k++ * n + i] = pack64(floatBitsToUint(uintBitsToFloat(unpack32(a))));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(uint16BitsToFloat16(unpack16(a))));
        pairs[k++ * n + i] = pack64(u16vec4(i16vec4(unpack16(a))));
        pairs[k++ * n + i] = pack64(unpack16(a));
        pairs[k++ * n + i] = pack64(unpack16(a));
    }
    {
        int64_t a = int64_t(x);
        pairs[k++ * n + i] = uint64_t(a);
        pairs[k++ * n + i] = uint64_t(a);
        pairs[k++ * n + i] = pack64(unpack32(uint64_t(a)));
        pairs[k++ * n + i] = pack64(uvec2(ivec2(unpack32(uint64_t(a)))));
        pairs[k++ * n + i] = pack64(floatBitsToUint(uintBitsToFloat(unpack32(uint64_t(a)))));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(uint16BitsToFloat16(unpack16(uint64_t(a)))));
        pairs[k++ * n + i] = pack64(u16vec4(i16vec4(unpack16(uint64_t(a)))));
        pairs[k++ * n + i] = pack64(unpack16(uint64_t(a)));
        pairs[k++ * n + i] = pack64(unpack16(uint64_t(a)));
    }
    {
        uvec2 a = unpack32(x);
        pairs[k++ * n + i] = pack64(a);
        pairs[k++ * n + i] = uint64_t(int64_t(pack64(a)));
        pairs[k++ * n + i] = pack64(a);
        pairs[k++ * n + i] = pack64(uvec2(ivec2(a)));
        pairs[k++ * n + i] = pack64(floatBitsToUint(uintBitsToFloat(a)));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(uint16BitsToFloat16(unpack16(pack64(a)))));
        pairs[k++ * n + i] = pack64(u16vec4(i16vec4(unpack16(pack64(a)))));
        pairs[k++ * n + i] = pack64(unpack16(pack64(a)));
        pairs[k++ * n + i] = pack64(unpack16(pack64(a)));
    }
    {
        ivec2 a = ivec2(unpack32(x));
        pairs[k++ * n + i] = pack64(uvec2(a));
        pairs[k++ * n + i] = uint64_t(int64_t(pack64(uvec2(a))));
        pairs[k++ * n + i] = pack64(uvec2(a));
        pairs[k++ * n + i] = pack64(uvec2(a));
        pairs[k++ * n + i] = pack64(floatBitsToUint(intBitsToFloat(a)));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(uint16BitsToFloat16(unpack16(pack64(uvec2(a))))));
        pairs[k++ * n + i] = pack64(u16vec4(i16vec4(unpack16(pack64(uvec2(a))))));
        pairs[k++ * n + i] = pack64(unpack16(pack64(uvec2(a))));
        pairs[k++ * n + i] = pack64(unpack16(pack64(uvec2(a))));
    }
    {
        precise vec2 a = uintBitsToFloat(unpack32(x));
        pairs[k++ * n + i] = pack64(floatBitsToUint(a));
        pairs[k++ * n + i] = uint64_t(int64_t(pack64(floatBitsToUint(a))));
        pairs[k++ * n + i] = pack64(floatBitsToUint(a));
        pairs[k++ * n + i] = pack64(uvec2(floatBitsToInt(a)));
        pairs[k++ * n + i] = pack64(floatBitsToUint(a));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(uint16BitsToFloat16(unpack16(pack64(floatBitsToUint(a))))));
        pairs[k++ * n + i] = pack64(u16vec4(i16vec4(unpack16(pack64(floatBitsToUint(a))))));
        pairs[k++ * n + i] = pack64(unpack16(pack64(floatBitsToUint(a))));
        pairs[k++ * n + i] = pack64(unpack16(pack64(floatBitsToUint(a))));
    }
    {
        precise f16vec4 a = uint16BitsToFloat16(unpack16(x));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(a));
        pairs[k++ * n + i] = uint64_t(int64_t(pack64(float16BitsToUint16(a))));
        pairs[k++ * n + i] = pack64(unpack32(pack64(float16BitsToUint16(a))));
        pairs[k++ * n + i] = pack64(uvec2(ivec2(unpack32(pack64(float16BitsToUint16(a))))));
        pairs[k++ * n + i] = pack64(floatBitsToUint(uintBitsToFloat(unpack32(pack64(float16BitsToUint16(a))))));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(a));
        pairs[k++ * n + i] = pack64(u16vec4(float16BitsToInt16(a)));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(a));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(a));
    }
    {
        i16vec4 a = i16vec4(unpack16(x));
        pairs[k++ * n + i] = pack64(u16vec4(a));
        pairs[k++ * n + i] = uint64_t(int64_t(pack64(u16vec4(a))));
        pairs[k++ * n + i] = pack64(unpack32(pack64(u16vec4(a))));
        pairs[k++ * n + i] = pack64(uvec2(ivec2(unpack32(pack64(u16vec4(a))))));
        pairs[k++ * n + i] = pack64(floatBitsToUint(uintBitsToFloat(unpack32(pack64(u16vec4(a))))));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(int16BitsToFloat16(a)));
        pairs[k++ * n + i] = pack64(u16vec4(a));
        pairs[k++ * n + i] = pack64(u16vec4(a));
        pairs[k++ * n + i] = pack64(u16vec4(a));
    }
    {
        u16vec4 a = unpack16(x);
        pairs[k++ * n + i] = pack64(a);
        pairs[k++ * n + i] = uint64_t(int64_t(pack64(a)));
        pairs[k++ * n + i] = pack64(unpack32(pack64(a)));
        pairs[k++ * n + i] = pack64(uvec2(ivec2(unpack32(pack64(a)))));
        pairs[k++ * n + i] = pack64(floatBitsToUint(uintBitsToFloat(unpack32(pack64(a)))));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(uint16BitsToFloat16(a)));
        pairs[k++ * n + i] = pack64(u16vec4(i16vec4(a)));
        pairs[k++ * n + i] = pack64(a);
        pairs[k++ * n + i] = pack64(a);
    }
    {
        precise u16vec4 a = unpack16(x);
        pairs[k++ * n + i] = pack64(a);
        pairs[k++ * n + i] = uint64_t(int64_t(pack64(a)));
        pairs[k++ * n + i] = pack64(unpack32(pack64(a)));
        pairs[k++ * n + i] = pack64(uvec2(ivec2(unpack32(pack64(a)))));
        pairs[k++ * n + i] = pack64(floatBitsToUint(uintBitsToFloat(unpack32(pack64(a)))));
        pairs[k++ * n + i] = pack64(float16BitsToUint16(uint16BitsToFloat16(a)));
        pairs[k++ * n + i] = pack64(u16vec4(i16vec4(a)));
        pairs[k++ * n + i] = pack64(a);
        pairs[k++ * n + i] = pack64(a);
    }
}
