#version 450
// Translated by mtl2glsl 0.1.0 from matmul.json, kernel matmul

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_A { float A[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_B { float B[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_C { precise float C[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_A_extents { uint A_extents[]; };
layout(std430, set = 0, binding = 4) readonly buffer mtl_buffer_B_extents { uint B_extents[]; };
layout(std430, set = 0, binding = 5) readonly buffer mtl_buffer_C_extents { uint C_extents[]; };

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
    uvec2 gid = gl_GlobalInvocationID.xy;
    uint K = A_extents[0];
    float acc = 0.0;
    for (uint k = 0u; k < K; k++)
    {
        acc += A[(k + A_extents[0] * (gid.y))] * B[(gid.x + B_extents[0] * (k))];
    }
    C[(gid.x + C_extents[0] * (gid.y))] = acc;
}
