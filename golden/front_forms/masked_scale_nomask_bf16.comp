#version 450
// Translated by mtl2glsl 0.1.0 from front_forms.metal, kernel masked_scale_nomask_bf16
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct NoMask
{
    int8_t x;
};

struct ScaleOp_bfloat
{
    uint16_t scale;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { uint16_t in_[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_mask { NoMask mask[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise uint16_t out_[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_extra { precise uint16_t extra[]; };

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

bool NoMask_to_bool(NoMask self)
{
    return true;
}

precise uint16_t ScaleOp_bfloat_apply(ScaleOp_bfloat self, uint16_t x)
{
    return mtl_float_to_bf16(mtl_bf16_to_float(x) * mtl_bf16_to_float(self.scale));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise ScaleOp_bfloat op;
    op.scale = uint16_t(0x4000u /* 2 */);
    if (i % 5u != 4u)
    {
        op.scale = mtl_float_to_bf16(float(NoMask_to_bool(mask[i])));
    }
    out_[i] = ScaleOp_bfloat_apply(op, in_[i]);
    if (i == 0u)
    {
        precise uint16_t v = uint16_t(0x0000u /* 0 */);
        v = uint16_t(0x4040u /* 3 */);
        extra[0] = v;
        v = uint16_t(0x4382u /* 260 */);
        extra[1] = v;
        v = uint16_t(0x3fc0u /* 1.5 */);
        extra[2] = v;
        v = uint16_t(0x3dcdu /* 0.100098 */);
        extra[3] = v;
    }
}
