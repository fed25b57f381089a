#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel logsumexp3
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise vec2 out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float logsumexp_float(float first, float rest)
{
    precise float args[2] = float[2](first, rest);
    const int N = int(1ul + 1ul);
    precise float m = args[0];
    for (int i = 1; i < N; i++)
    {
        m = max(m, args[i]);
    }
    precise float s = 0.0;
    for (int i = 0; i < N; i++)
    {
        s += exp(args[i] - m);
    }
    return log(s) + m;
}

precise float logsumexp_float(float first, float rest, float rest_1)
{
    precise float args[3] = float[3](first, rest, rest_1);
    const int N = int(1ul + 2ul);
    precise float m = args[0];
    for (int i = 1; i < N; i++)
    {
        m = max(m, args[i]);
    }
    precise float s = 0.0;
    for (int i = 0; i < N; i++)
    {
        s += exp(args[i] - m);
    }
    return log(s) + m;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    out_[i] = vec2(logsumexp_float(a[i], b[i]), logsumexp_float(a[i], b[i], a[i] - b[i]));
}
