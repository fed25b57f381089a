#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel rotate_rounds

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { uvec2 in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { uvec2 out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

const uint rot_table[2][4] = uint[2][4](uint[4](uint(13), uint(15), uint(26), uint(6)), uint[4](uint(17), uint(29), uint(16), uint(24)));

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uvec2 v = in_[i];
    for (int k = 0; k < 3; ++k)
    {
        for (int mtl_r_i = 0; mtl_r_i < 4; mtl_r_i++)
        {
            uint r = rot_table[mtl_rem(k, 2)][mtl_r_i];
            {
                v.x += v.y;
                v.y = (v.y << r) | (v.y >> (32u - r));
                v.y ^= v.x;
            }
        }
    }
    uint extra[3] = uint[3](1u, 2u, 3u);
    for (int mtl_e_i = 0; mtl_e_i < 3; mtl_e_i++)
    {
        uint e = extra[mtl_e_i];
        v.x += e * v.y;
    }
    out_[i] = v;
}
