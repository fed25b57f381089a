#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel frexp_forms

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_mant { precise vec2 mant[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_exps { ivec2 exps[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float frexp_(float x, inout int e)
{
    return frexp(x, e);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    int exp;
    precise float m = frexp(in_[i], exp);
    int e2 = 0;
    precise float m2 = frexp_(in_[i] * 3.0, e2);
    mant[i] = vec2(m, m2);
    exps[i] = ivec2(exp, e2);
}
