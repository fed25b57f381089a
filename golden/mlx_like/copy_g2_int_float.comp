#version 450
// Translated by mtl2glsl 0.1.0 from mlx_like.metal, kernel copy_g2_int_float

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Layout
{
    int shape[4];
    int strides[4];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src { int src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_dst { precise float dst[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) Layout src_layout;
} mtl_params;

int mlx_like_elem_to_loc_2_int(uint elem, Layout l)
{
    int loc = 0;
    for (int i = 2 - 1; i >= 0; --i)
    {
        loc += int(elem % uint(l.shape[i])) * l.strides[i];
        elem /= uint(l.shape[i]);
    }
    return loc;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    Layout src_layout = mtl_params.src_layout;
    uint index = gl_GlobalInvocationID.x;
    dst[index] = float(src[mlx_like_elem_to_loc_2_int(index, src_layout)]);
}
