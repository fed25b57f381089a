#version 450
// Translated by mtl2glsl 0.1.0 from bitcast.metal, kernel bits128
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { uvec4 w[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_l_in { i64vec2 l_in[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_f { precise vec4 f[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_iv { ivec4 iv[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_back { uvec4 back[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_ul { u64vec2 ul[]; };
layout(std430, set = 0, binding = 6) writeonly buffer mtl_buffer_f3 { precise float f3[]; };
layout(std430, set = 0, binding = 7) writeonly buffer mtl_buffer_f3_bits { uint f3_bits[]; };
layout(std430, set = 0, binding = 8) writeonly buffer mtl_buffer_i3 { int i3[]; };
layout(std430, set = 0, binding = 9) writeonly buffer mtl_buffer_h3 { precise float16_t h3[]; };
layout(std430, set = 0, binding = 10) writeonly buffer mtl_buffer_h3_bits { uint16_t h3_bits[]; };
layout(std430, set = 0, binding = 11) writeonly buffer mtl_buffer_c3 { uint8_t c3[]; };
layout(std430, set = 0, binding = 12) writeonly buffer mtl_buffer_l_as_int4 { ivec4 l_as_int4[]; };
layout(std430, set = 0, binding = 13) writeonly buffer mtl_buffer_f_as_ulong2 { u64vec2 f_as_ulong2[]; };
layout(std430, set = 0, binding = 14) writeonly buffer mtl_buffer_i3_as_long2 { i64vec2 i3_as_long2[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// as_type between 16-byte types of 64-bit and of 32-bit components: the two 64-bit halves
u64vec2 mtl_u32x4_to_u64x2(uvec4 v) { return u64vec2(pack64(v.xy), pack64(v.zw)); }
uvec4 mtl_u64x2_to_u32x4(u64vec2 v) { return uvec4(unpack32(v.x), unpack32(v.y)); }

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uvec4 x = w[i];
    precise vec4 v = uintBitsToFloat(x);
    f[i] = v;
    iv[i] = floatBitsToInt(v);
    back[i] = uvec4(floatBitsToInt(intBitsToFloat(ivec4(x))));
    ul[i] = u64vec2(l_in[i]);
    precise vec3 v3 = uintBitsToFloat(floatBitsToUint(v).xyz);
    uvec4 b3 = uvec4(floatBitsToUint(v3), 0u);
    ivec3 n3 = floatBitsToInt(v3);
    precise f16vec3 hh = uint16BitsToFloat16(unpack16(pack64(x.xy)).xyz);
    u16vec4 hb = u16vec4(float16BitsToUint16(hh), uint16_t(0));
    u8vec3 cc = unpack8(x.z).xyz;
    l_as_int4[i] = ivec4(mtl_u64x2_to_u32x4(u64vec2(l_in[i])));
    f_as_ulong2[i] = mtl_u32x4_to_u64x2(floatBitsToUint(v));
    i3_as_long2[i] = i64vec2(mtl_u32x4_to_u64x2(uvec4(uvec3(n3), 0u)));
    for (int j = 0; j < 3; j++)
    {
        f3[i * 3u + uint(j)] = v3[j];
        f3_bits[i * 3u + uint(j)] = b3[j];
        i3[i * 3u + uint(j)] = n3[j];
        h3[i * 3u + uint(j)] = hh[j];
        h3_bits[i * 3u + uint(j)] = hb[j];
        c3[i * 3u + uint(j)] = cc[j];
    }
}
