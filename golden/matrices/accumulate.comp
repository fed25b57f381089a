#version 450
// Translated by mtl2glsl 0.1.0 from matrices.metal, kernel accumulate

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_xs { vec3 xs[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_ys { vec3 ys[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise mat3 out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint k_count;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint k_count = mtl_params.k_count;
    uint i = gl_GlobalInvocationID.x;
    precise mat3 acc = mat3(0.0);
    acc = mat3(0.0);
    for (uint k = 0u; k < k_count; k++)
    {
        precise vec3 x = xs[i * k_count + k];
        precise vec3 y = ys[i * k_count + k];
        acc += mat3(x * y.x, x * y.y, x * y.z);
    }
    out_[i] = acc;
}
