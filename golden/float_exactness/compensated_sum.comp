#version 450
// Translated by mtl2glsl 0.1.0 from float_exactness.metal, kernel compensated_sum

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise vec2 out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint n;
} mtl_params;

precise float two_sum_error(float a, float b)
{
    precise float s = a + b;
    precise float bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint n = mtl_params.n;
    uint row = gl_GlobalInvocationID.x;
    float s = 0.0;
    float c = 0.0;
    for (uint k = 0u; k < n; k++)
    {
        precise float v = x[row * n + k];
        c += two_sum_error(s, v);
        s += v;
    }
    out_[row] = vec2(s, c);
}
