#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel uniform_rows

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int n;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int n = mtl_params.n;
    uint gid = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    const int step = 4;
    const int size = n;
    const int iters = size / step;
    const int last = step * iters;
    const int rest = size - last;
    float scale = 0.5;
    float s = 0.0;
    for (int i = 0; i < iters; i++)
    {
        for (int j = 0; j < step; j++)
        {
            s += x[gid * uint(n) + uint(i * step) + uint(j)] * float(j + 1);
        }
    }
    for (int j = 0; j < rest; j++)
    {
        s += x[gid * uint(n) + uint(last) + uint(j)] * 1e+02;
    }
    out_[gid] = s * scale;
}
