#version 450
// Translated by mtl2glsl 0.1.0 from front_forms.metal, kernel pair_sum_bf16
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { uint16_t in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise uint16_t out_[]; };

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

vec2 mtl_bf16_to_float(u16vec2 b)
{
    return uintBitsToFloat(uvec2(b) << 16);
}

u16vec2 mtl_float_to_bf16(vec2 f)
{
    uvec2 u = floatBitsToUint(f);
    return u16vec2(mix((u + 0x7fffu + ((u >> 16) & 1u)) >> 16, (u >> 16) | 0x40u, isnan(f)));
}

precise uint16_t Pairs_sum_bfloat(u16vec2 v, uint16_t bias)
{
    return mtl_float_to_bf16(mtl_bf16_to_float(mtl_float_to_bf16(mtl_bf16_to_float(v.x) + mtl_bf16_to_float(v.y))) + mtl_bf16_to_float(bias));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise u16vec2 v = mtl_float_to_bf16(vec2(mtl_bf16_to_float(in_[2u * i]), mtl_bf16_to_float(in_[2u * i + 1u])));
    out_[i] = Pairs_sum_bfloat(v, uint16_t(0x3f00u /* 0.5 */));
}
