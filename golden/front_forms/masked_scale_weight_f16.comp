#version 450
// Translated by mtl2glsl 0.1.0 from front_forms.metal, kernel masked_scale_weight_f16
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Weight
{
    int w;
};

struct ScaleOp_half
{
    float16_t scale;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float16_t in_[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_mask { Weight mask[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise float16_t out_[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_extra { precise float16_t extra[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

int Weight_to_int(Weight self)
{
    return self.w;
}

precise float16_t ScaleOp_half_apply(ScaleOp_half self, float16_t x)
{
    return x * self.scale;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise ScaleOp_half op;
    op.scale = 2.0hf;
    if (i % 5u != 4u)
    {
        op.scale = float16_t(Weight_to_int(mask[i]));
    }
    out_[i] = ScaleOp_half_apply(op, in_[i]);
    if (i == 0u)
    {
        precise float16_t v;
        v = 3.0hf;
        extra[0] = v;
        v = 259.0hf;
        extra[1] = v;
        v = 1.5hf;
        extra[2] = v;
        v = 0.1hf;
        extra[3] = v;
    }
}
