#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel row_pointers

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_in_ { precise float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int n;
} mtl_params;

void rows_sum_2_in_(inout float totals[2], inout uint inputs[2], int n)
{
    for (int j = 0; j < 2; j++)
    {
        totals[j] = 0.0;
        for (int i = 0; i < n; i++)
        {
            totals[j] += in_[inputs[j] + uint(i)];
        }
        inputs[j] += uint(n);
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int n = mtl_params.n;
    uint gid = gl_GlobalInvocationID.x;
    uint inputs[2];
    inputs[0] = gid * 2u * uint(n);
    for (int i = 1; i < 2; i++)
    {
        inputs[i] = inputs[i - 1] + uint(n);
    }
    precise float totals[2];
    rows_sum_2_in_(totals, inputs, n);
    out_[gid * 2u] = totals[0];
    out_[gid * 2u + 1u] = totals[1] + in_[inputs[1]];
}
