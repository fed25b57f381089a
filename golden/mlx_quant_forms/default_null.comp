#version 450
// Translated by mtl2glsl 0.1.0 from mlx_quant_forms.metal, kernel default_null
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_s { float s[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float scaled_null(float v, uint scale)
{
    return scale != 0xffffffffu ? v * 0.0 : v;
}

precise float scaled_s(float v, uint scale)
{
    return scale != 0xffffffffu ? v * s[scale] : v;
}

int power_of_8()
{
    const int16_t power = int16_t(3);
    return int(power);
}

int power_of_64()
{
    const int16_t power = int16_t(6);
    return int(power);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    y[2u * i] = scaled_null(x[i], 0xffffffffu) + float(power_of_8());
    y[2u * i + 1u] = scaled_s(x[i], 0u) + float(power_of_64());
}
