#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel int_math_bfloat_conditionals
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { uint16_t x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_n { int64_t n[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_h { float16_t h[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_angle { precise uint16_t angle[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_picked { precise float picked[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_logs { precise float logs[]; };

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

precise uint16_t angle_of_bfloat(uint16_t x)
{
    return mtl_float_to_bf16(isnan(mtl_bf16_to_float(x)) ? mtl_bf16_to_float(x) : (mtl_bf16_to_float(x) < 0.0 ? 3.1415927 : 0.0));
}

precise float pick_count_bfloat(uint16_t x, int64_t n)
{
    return mtl_bf16_to_float(n < 3l ? x : mtl_float_to_bf16(float(n)));
}

precise float pick_half_bfloat(uint16_t x, float16_t h)
{
    return mtl_bf16_to_float(x) > 0.0 ? mtl_bf16_to_float(x) : float(h);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    angle[i] = angle_of_bfloat(x[i]);
    picked[2u * i] = pick_count_bfloat(x[i], n[i]);
    picked[2u * i + 1u] = pick_half_bfloat(x[i], h[i]);
    logs[i] = log(1e+01) * float(i % 7u) + pow(2.0, float(int(i % 5u))) + log2(float(n[i] > 0l ? n[i] : 1l));
}
