#version 450
// Translated by mtl2glsl 0.1.0 from bfloat.metal, kernel bf_limits
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { uint16_t x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_row_max { precise uint16_t row_max[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_consts { precise uint16_t consts[]; };

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

precise const uint16_t BfLimits_bfloat_min = uint16_t(0xff80u /* -inf */);
precise const uint16_t BfLimits_bfloat_max = uint16_t(0x7f80u /* inf */);
precise const uint16_t BfLimits_bfloat_finite_max = uint16_t(0x7f7fu /* 3.38953e+38 */);
precise const uint16_t BfLimits_bfloat_finite_min = uint16_t(0xff7fu /* -3.38953e+38 */);
precise const uint16_t bf_third = uint16_t(0x3eabu /* 0.333984 */);
precise const uint16_t bf_tie = uint16_t(0x3f80u /* 1 */);

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise uint16_t m = BfLimits_bfloat_min;
    for (int k = 0; k < 8; k++)
    {
        m = mtl_float_to_bf16(max(mtl_bf16_to_float(x[i * 8u + uint(k)]), mtl_bf16_to_float(m)));
    }
    row_max[i] = m;
    if (i == 0u)
    {
        consts[0] = BfLimits_bfloat_max;
        consts[1] = BfLimits_bfloat_min;
        consts[2] = BfLimits_bfloat_finite_max;
        consts[3] = BfLimits_bfloat_finite_min;
        consts[4] = bf_third;
        consts[5] = bf_tie;
    }
}
