#version 450
// Translated by mtl2glsl 0.1.0 from c10_ops.metal, kernel leaky_relu_bfloat
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct leaky_relu_functor
{
    float alpha;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_input_ { uint16_t input_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_output_ { precise uint16_t output_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) float alpha;
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

precise leaky_relu_functor leaky_relu_functor_make(float a)
{
    precise leaky_relu_functor self;
    self.alpha = a;
    return self;
}

precise uint16_t c10_metal_cast_to_bfloat_float(float x)
{
    return mtl_float_to_bf16(x);
}

precise uint16_t leaky_relu_functor_operator_call_bfloat(leaky_relu_functor self, uint16_t x)
{
    precise uint16_t m = x;
    return c10_metal_cast_to_bfloat_float(mtl_bf16_to_float(m) > 0.0 ? mtl_bf16_to_float(m) : mtl_bf16_to_float(mtl_float_to_bf16(self.alpha * mtl_bf16_to_float(m))));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    float alpha = mtl_params.alpha;
    uint index = gl_GlobalInvocationID.x;
    precise leaky_relu_functor f = leaky_relu_functor_make(alpha);
    output_[index] = leaky_relu_functor_operator_call_bfloat(f, input_[index]);
}
