#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel gamma_pair

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_g { precise float g[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_lg { precise float lg[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float stirling_log_gamma(float y)
{
    precise const float z = 1.0 / (y * y);
    precise const float series = (1.0 / 12.0 - z * (1.0 / 3.6e+02 - z * (1.0 / 1.26e+03))) / y;
    return (y - 0.5) * log(y) - y + 0.9189385 + series;
}

precise float gamma_of_float_x_lt8(float x)
{
    precise float y = x;
    float prod = 1.0;
    while (y < 8.0)
    {
        prod *= y;
        y += 1.0;
    }
    return exp(stirling_log_gamma(y)) / prod;
}

precise float log_gamma_of_float(float x)
{
    precise const float ax = abs(x);
    if (ax < 8.0)
    {
        return log(abs(gamma_of_float_x_lt8(ax)));
    }
    return stirling_log_gamma(ax);
}

precise float gamma_of_float(float x)
{
    if (x >= 8.0)
    {
        return exp(log_gamma_of_float(x));
    }
    precise float y = x;
    float prod = 1.0;
    while (y < 8.0)
    {
        prod *= y;
        y += 1.0;
    }
    return exp(stirling_log_gamma(y)) / prod;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    g[i] = gamma_of_float(x[i]);
    lg[i] = log_gamma_of_float(x[i]);
}
