#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel half_roots
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { vec2 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_h { f16vec2 h[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise vec2 out_[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_hout { precise f16vec2 hout[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise vec2 half_root_float2(vec2 x)
{
    precise const float m = length(x);
    return vec2(sqrt((m + x.x) * 0.5), (x.y * 2.0));
}

precise f16vec2 half_root_half2(f16vec2 x)
{
    precise const float16_t m = length(x);
    return f16vec2(float16_t(sqrt(float((m + x.x)) * 0.5)), (x.y * 2.0hf));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    out_[i] = half_root_float2(a[i]);
    hout[i] = half_root_half2(h[i]);
}
