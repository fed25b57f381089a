#version 450
// Translated by mtl2glsl 0.1.0 from mlx_quant_forms.metal, kernel limits_range
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_xb { uint16_t xb[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_xh { float16_t xh[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int n;
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

precise const uint16_t Limits_bfloat_max = uint16_t(0x7f80u /* inf */);
precise const uint16_t Limits_bfloat_min = uint16_t(0xff80u /* -inf */);
precise const uint16_t Limits_bfloat_finite_max = uint16_t(0x7f7fu /* 3.38953e+38 */);

precise float range_of_bfloat_xb(uint x, int n)
{
    precise float lo = mtl_bf16_to_float(Limits_bfloat_max);
    precise float hi = mtl_bf16_to_float(Limits_bfloat_min);
    for (int i = 0; i < n; i++)
    {
        lo = min(lo, mtl_bf16_to_float(xb[x + uint(i)]));
        hi = max(hi, mtl_bf16_to_float(xb[x + uint(i)]));
    }
    return hi - lo;
}

precise float range_of_half_xh(uint x, int n)
{
    precise float lo = uintBitsToFloat(0x7f800000u);
    precise float hi = uintBitsToFloat(0xff800000u);
    for (int i = 0; i < n; i++)
    {
        lo = min(lo, float(xh[x + uint(i)]));
        hi = max(hi, float(xh[x + uint(i)]));
    }
    return hi - lo;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int n = mtl_params.n;
    uint i = gl_GlobalInvocationID.x;
    out_[4u * i] = range_of_bfloat_xb(i * uint(n), n);
    out_[4u * i + 1u] = range_of_half_xh(i * uint(n), n);
    out_[4u * i + 2u] = mtl_bf16_to_float(Limits_bfloat_finite_max);
    out_[4u * i + 3u] = uintBitsToFloat(0xff800000u);
}
