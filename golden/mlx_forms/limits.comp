#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel limits
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_f { precise float f[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_h { precise float16_t h[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_b { precise uint16_t b[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// bfloat: the upper 16 bits of a float, rounded to nearest even; NaN stays a quiet NaN.
float mtl_bf16_to_float(uint16_t b)
{
    return uintBitsToFloat(uint(b) << 16);
}

uint16_t mtl_float_to_bf16(float f)
{
    uint u = floatBitsToUint(f);
    if (isnan(f))
        return uint16_t((u >> 16) | 0x40u);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

precise float inf_of_float()
{
    return uintBitsToFloat(0x7f800000u);
}

precise float16_t inf_of_half()
{
    return float16_t(uintBitsToFloat(0x7f800000u));
}

precise uint16_t inf_of_bfloat()
{
    return uint16_t(0x7f80u /* inf */);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint gid = gl_GlobalInvocationID.x;
    precise float s = float(gid);
    f[gid * 4u + 0u] = inf_of_float() * (s + 1.0);
    f[gid * 4u + 1u] = -uintBitsToFloat(0x7f800000u);
    f[gid * 4u + 2u] = uintBitsToFloat(0x7fc00000u);
    f[gid * 4u + 3u] = 3.4028235e+38;
    h[gid * 4u + 0u] = inf_of_half();
    h[gid * 4u + 1u] = -float16_t(uintBitsToFloat(0x7f800000u));
    h[gid * 4u + 2u] = float16_t(uintBitsToFloat(0x7fc00000u));
    h[gid * 4u + 3u] = 65504.0hf;
    b[gid * 4u + 0u] = inf_of_bfloat();
    b[gid * 4u + 1u] = uint16_t(0xff80u /* -inf */);
    b[gid * 4u + 2u] = uint16_t(0x7fc0u /* nan */);
    b[gid * 4u + 3u] = uint16_t(0x7f7fu /* 3.38953e+38 */);
}
