#version 450
// Translated by mtl2glsl 0.1.0 from mlx_more_forms.metal, kernel int_power

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_base { int base[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_expo { int expo[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { int out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    int b = base[i];
    int e = expo[i];
    if (e < 0)
    {
        out_[i] = 0;
        return;
    }
    int res = 1;
    while (bool(e))
    {
        if (bool(e & 1))
        {
            res *= b;
        }
        e >>= 1;
        b *= b;
    }
    out_[i] = res;
}
