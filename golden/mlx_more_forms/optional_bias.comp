#version 450
// Translated by mtl2glsl 0.1.0 from mlx_more_forms.metal, kernel optional_bias

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_bias { float bias[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) float alpha;
} mtl_params;

layout(constant_id = 100) const bool do_axpby = false; // [[function_constant(7)]]

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    float alpha = mtl_params.alpha;
    uint i = gl_GlobalInvocationID.x;
    precise float v = x[i] * 2.0;
    if (do_axpby)
    {
        v += alpha * bias[i];
    }
    y[i] = v;
}
