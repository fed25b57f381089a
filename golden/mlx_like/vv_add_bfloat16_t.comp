#version 450
// Translated by mtl2glsl 0.1.0 from mlx_like.metal, kernel vv_add_bfloat16_t
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { uint16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { uint16_t b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise uint16_t out_[]; };

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

precise uint16_t Add_operator_call_bfloat(uint16_t a, uint16_t b)
{
    return mtl_float_to_bf16(mtl_bf16_to_float(a) + mtl_bf16_to_float(b));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint index = gl_GlobalInvocationID.x;
    out_[index] = Add_operator_call_bfloat(a[index], b[index]);
}
