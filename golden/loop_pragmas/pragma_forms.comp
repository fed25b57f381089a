#version 450
// Translated by mtl2glsl 0.1.0 from loop_pragmas.metal, kernel pragma_forms
#extension GL_EXT_control_flow_attributes : require // [[unroll]]: Metal's loop pragmas

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_w { float w[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float dot_unrolled_float_8_v_w(uint a, uint b, in float v[8])
{
    precise float s = 0.0;
    [[unroll]] for (int i = 0; i < 8; i++)
    {
        s += v[a + uint(i)] * w[b + uint(i)];
    }
    return s;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint t = gl_GlobalInvocationID.x;
    precise float v[8];
    [[unroll]] for (int i = 0; i < 8; i++)
    {
        v[i] = x[8u * t + uint(i)];
    }
    precise float s = dot_unrolled_float_8_v_w(0u, 0u, v);
    uint n = t + 1u;
    [[dont_unroll]] while (n > 0u)
    {
        s += 1.0;
        n /= 2u;
    }
    int k = 0;
    [[dont_unroll]] do
    {
        s += 1.0;
        k += 3;
    }
    while (k < 9);
    for (int i = 0; i < 4; i++)
    {
        s -= v[i];
    }
    for (int i = 4; i < 8; i++)
    {
        s -= 0.5 * v[i];
    }
    [[unroll]] for (int i = 0; i < 2; i++)
    {
        s += 2.0 * v[i];
    }
    out_[t] = s;
}
