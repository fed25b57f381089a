#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel accumulate_at_offs_bfloat
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_out_ { int8_t out_[]; };
layout(std430, set = 0, binding = 0) buffer mtl_buffer_out__as_uint16_t { precise uint16_t out__as_uint16_t[]; }; // 'out' read as bfloat
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_in_ { int8_t in_[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_in__as_uint16_t { uint16_t in__as_uint16_t[]; }; // 'in' read as bfloat

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int64_t out_stride;
    layout(offset = 24) int terms;
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

uint ref_at_offs_bfloat_in_(uint ptr, int64_t offs)
{
    return (ptr + uint(offs)) / 2u;
}

uint ref_at_offs_bfloat_out_(uint ptr, int64_t offs)
{
    return (ptr + uint(offs)) / 2u;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int64_t out_stride = mtl_params.out_stride;
    int terms = mtl_params.terms;
    uint i = gl_GlobalInvocationID.x;
    precise uint16_t acc = uint16_t(0x0000u /* 0 */);
    for (int k = 0; k < terms; ++k)
    {
        acc = mtl_float_to_bf16(mtl_bf16_to_float(acc) + mtl_bf16_to_float(in__as_uint16_t[ref_at_offs_bfloat_in_(0u, int64_t(i * uint(terms) + uint(k)) * 2l)]));
    }
    out__as_uint16_t[ref_at_offs_bfloat_out_(0u, int64_t(i) * out_stride)] = mtl_float_to_bf16(mtl_bf16_to_float(out__as_uint16_t[ref_at_offs_bfloat_out_(0u, int64_t(i) * out_stride)]) + mtl_bf16_to_float(acc));
    out__as_uint16_t[ref_at_offs_bfloat_out_(0u, int64_t(i) * out_stride)] = mtl_float_to_bf16(mtl_bf16_to_float(out__as_uint16_t[ref_at_offs_bfloat_out_(0u, int64_t(i) * out_stride)]) * 0.5);
}
