#version 450
// Translated by mtl2glsl 0.1.0 from loop_counters.metal, kernel counters_kept
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

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
    uint t = gl_GlobalInvocationID.x;
    precise float s = 0.0;
    for (int16_t i = int16_t(0); int(i) < 16; i++)
    {
        s += x[int(i)];
        if (x[int(i)] < 0.0)
        {
            i = int16_t(i + 1);
        }
    }
    for (int j = 65530; j <= 65533; j++)
    {
        s += float(j - 65530) * x[t % 8u];
    }
    out_[t] = s;
}
