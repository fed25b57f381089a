#version 450
// Translated by mtl2glsl 0.1.0 from library_forms.metal, kernel gelu_half
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
} mtl_params;

vec4 mtl_tanh(vec4 x)
{
    // tanh without overflow for large |x| and without cancellation near 0
    vec4 a = min(abs(x), vec4(10.0));
    vec4 a2 = a * a;
    vec4 small = a * (1.0 + a2 * (-1.0 / 3.0 + a2 * (2.0 / 15.0 + a2 * (-17.0 / 315.0 + a2 * (62.0 / 2835.0)))));
    vec4 large = 1.0 - 2.0 / (exp(2.0 * a) + 1.0);
    return sign(x) * mix(small, large, greaterThanEqual(a, vec4(0.3)));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise vec4 v = vec4(x[i]);
    precise vec4 g = 0.5 * v * (1.0 + mtl_tanh(0.7978846 * (v + 0.044715 * v * v * v)));
    precise vec4 zero = vec4(0, 0, 0, 0);
    y[i] = f16vec4(g + zero);
}
