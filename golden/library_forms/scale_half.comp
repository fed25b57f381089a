#version 450
// Translated by mtl2glsl 0.1.0 from library_forms.metal, kernel scale_half
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { f16vec4 x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { precise f16vec4 y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) float s;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    float s = mtl_params.s;
    uint i = gl_GlobalInvocationID.x;
    y[i] = (bool(i % 2u) ? x[i] * float16_t(s) : f16vec4(0.0hf)) + float16_t(s) * x[i];
}
