#version 450
// Translated by mtl2glsl 0.1.0 from pointers2.metal, kernel rows_and_locals

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_m { float m[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint cols;
} mtl_params;

uint row_of_m(uint m_p, uint r, uint cols)
{
    return m_p + r * cols;
}

void scale_local_v(uint p, int n, float f, inout float v[8])
{
    for (int k = 0; k < n; k++)
    {
        v[p + uint(k)] *= f;
    }
}

precise float dot_local_v_m(uint a, uint b, int n, in float v[8])
{
    float s = 0.0;
    for (int k = 0; k < n; k++)
    {
        s += v[a + uint(k)] * m[b + uint(k)];
    }
    return s;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint cols = mtl_params.cols;
    uint r = gl_GlobalInvocationID.x;
    uint rr = row_of_m(0u, r, cols);
    precise float v[8];
    for (uint k = 0u; k < 8u; k++)
    {
        v[k] = float(k + 1u) * m[rr + k];
    }
    scale_local_v(4u, 4, 0.5, v);
    scale_local_v(1u, 2, -1.0, v);
    y[r] = dot_local_v_m(0u, row_of_m(0u, r, cols) + 8u, 8, v);
}
