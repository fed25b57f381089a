#version 450
// Translated by mtl2glsl 0.1.0 from mlx_like.metal, kernel g2_fastexp_float

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Layout
{
    int shape[4];
    int strides[4];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) Layout in_layout;
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

precise float FastExp_operator_call_float(float x)
{
    return exp(x);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    Layout in_layout = mtl_params.in_layout;
    uint index = gl_GlobalInvocationID.x;
    int loc = mlx_like_elem_to_loc_2_int(index, in_layout);
    out_[index] = FastExp_operator_call_float(in_[loc]);
}
