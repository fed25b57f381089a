#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel signal_value

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) writeonly volatile coherent buffer mtl_buffer_flag { uint flag[]; };
layout(std430, set = 0, binding = 1) writeonly coherent buffer mtl_buffer_data { precise float data[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint value;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint value = mtl_params.value;
    uint i = gl_GlobalInvocationID.x;
    data[i] = float(value) + float(i);
    if (i == 0u)
    {
        flag[0] = value;
    }
}
