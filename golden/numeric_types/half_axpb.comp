#version 450
// Translated by mtl2glsl 0.1.0 from numeric_types.metal, kernel half_axpb
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float16_t x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { precise float16_t y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) float a;
    layout(offset = 20) float b;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    float a = mtl_params.a;
    float b = mtl_params.b;
    uint i = gl_GlobalInvocationID.x;
    precise float16_t ha = float16_t(a);
    precise float16_t hb = float16_t(b);
    y[i] = ha * x[i] + hb;
}
