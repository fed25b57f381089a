#version 450
// Translated by mtl2glsl 0.1.0 from bfloat.metal, kernel bf_arith
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { uint16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { uint16_t b[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_k { int k[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_two_roundings { precise uint16_t two_roundings[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_mixed { precise float mixed[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_with_int { precise uint16_t with_int[]; };
layout(std430, set = 0, binding = 6) writeonly buffer mtl_buffer_flags { uint flags[]; };

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
    precise uint16_t x = a[i];
    precise uint16_t y = b[i];
    two_roundings[i] = mtl_float_to_bf16(mtl_bf16_to_float(mtl_float_to_bf16(mtl_bf16_to_float(x) * mtl_bf16_to_float(y))) + mtl_bf16_to_float(x));
    mixed[i] = mtl_bf16_to_float(x) * 1.5 + mtl_bf16_to_float(y);
    with_int[i] = mtl_float_to_bf16(mtl_bf16_to_float(x) + mtl_bf16_to_float(mtl_float_to_bf16(float(k[i]))));
    flags[i] = uint(mtl_bf16_to_float(x) < mtl_bf16_to_float(y)) | uint(mtl_bf16_to_float(x) == mtl_bf16_to_float(y)) << 1 | uint(mtl_bf16_to_float(x) < mtl_bf16_to_float(mtl_float_to_bf16(float(k[i])))) << 2 | uint(mtl_bf16_to_float(mtl_float_to_bf16(-mtl_bf16_to_float(x))) > mtl_bf16_to_float(y)) << 3;
}
