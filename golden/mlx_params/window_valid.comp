#version 450
// Translated by mtl2glsl 0.1.0 from mlx_params.metal, kernel window_valid

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_pos { int pos[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { int out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int limit;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int limit = mtl_params.limit;
    uint i = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    bool valid = true;
    for (int k = 0; k < 3; ++k)
    {
        int p = pos[3u * i + uint(k)];
        valid = bool(int(valid) & int(p >= 0 && p < limit && (mtl_rem(p, 2) == 0)));
    }
    bool any_odd = false;
    any_odd = bool(int(any_odd) | int((pos[3u * i] & 1) != 0));
    out_[i] = valid ? 1 : (any_odd ? 2 : 0);
}
