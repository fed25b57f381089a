#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel sub_scaled_int

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_out_ { int out_[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_a { int a[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_b { int b[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int alpha;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int alpha = mtl_params.alpha;
    uint i = gl_GlobalInvocationID.x;
    out_[i] = a[i] - alpha * b[i];
}
