#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel bfloat_cross
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { u16vec3 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { u16vec3 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise u16vec3 out_[]; };

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

vec3 mtl_bf16_to_float(u16vec3 b)
{
    return uintBitsToFloat(uvec3(b) << 16);
}

u16vec3 mtl_float_to_bf16(vec3 f)
{
    uvec3 u = floatBitsToUint(f);
    return u16vec3(mix((u + 0x7fffu + ((u >> 16) & 1u)) >> 16, (u >> 16) | 0x40u, isnan(f)));
}

precise u16vec3 cross_components(u16vec3 x, u16vec3 y)
{
    precise u16vec3 out_ = mtl_float_to_bf16(vec3(0.0));
    out_.x = mtl_float_to_bf16(mtl_bf16_to_float(mtl_float_to_bf16(mtl_bf16_to_float(x.y) * mtl_bf16_to_float(y.z))) - mtl_bf16_to_float(mtl_float_to_bf16(mtl_bf16_to_float(x.z) * mtl_bf16_to_float(y.y))));
    out_.y = mtl_float_to_bf16(mtl_bf16_to_float(mtl_float_to_bf16(mtl_bf16_to_float(x.z) * mtl_bf16_to_float(y.x))) - mtl_bf16_to_float(mtl_float_to_bf16(mtl_bf16_to_float(x.x) * mtl_bf16_to_float(y.z))));
    out_.z = mtl_float_to_bf16(mtl_bf16_to_float(mtl_float_to_bf16(mtl_bf16_to_float(x.x) * mtl_bf16_to_float(y.y))) - mtl_bf16_to_float(mtl_float_to_bf16(mtl_bf16_to_float(x.y) * mtl_bf16_to_float(y.x))));
    return out_;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    out_[i] = cross_components(a[i], b[i]);
}
