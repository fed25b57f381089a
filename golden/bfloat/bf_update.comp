#version 450
// Translated by mtl2glsl 0.1.0 from bfloat.metal, kernel bf_update
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_y { precise uint16_t y[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_s { uint16_t s[]; };

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

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise uint16_t a = y[i];
    a = mtl_float_to_bf16(mtl_bf16_to_float(a) + x[i]);
    a = mtl_float_to_bf16(mtl_bf16_to_float(a) * mtl_bf16_to_float(s[i]));
    a = mtl_float_to_bf16(mtl_bf16_to_float(a) - 0.375);
    a = mtl_float_to_bf16(mtl_bf16_to_float(a) + 1.0);
    a = mtl_float_to_bf16(mtl_bf16_to_float(a) / 4.0);
    a = mtl_float_to_bf16(mtl_bf16_to_float(a) - 1.0);
    y[i] = mtl_float_to_bf16(mtl_bf16_to_float(y[i]) + mtl_bf16_to_float(a));
}
