#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel series
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int64_t base;
} mtl_params;

precise float chbevl_float_A(float x, uint array, int len, in float A[3])
{
    precise float b0 = A[array];
    precise float b1 = 0.0;
    precise float b2 = 0.0;
    for (int i = 1; i < len; ++i)
    {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + A[array + uint(i)];
    }
    return 0.5 * (b0 - b2);
}

precise float chbevl_float_B(float x, uint array, int len, in float B[5])
{
    precise float b0 = B[array];
    precise float b1 = 0.0;
    precise float b2 = 0.0;
    for (int i = 1; i < len; ++i)
    {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + B[array + uint(i)];
    }
    return 0.5 * (b0 - b2);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int64_t base = mtl_params.base;
    uint i = gl_GlobalInvocationID.x;
    precise float A[3] = float[3](1.0, -0.5, 0.25);
    precise float B[5] = float[5](0.125, 2.0, -1.0, 0.5, 3.0);
    precise float x = float(i % 7u) * 0.25;
    precise float r;
    int64_t s = base + int64_t(i % 4u);
    switch ((s == int64_t(int(s)) ? int(s) : -2147483647))
    {
    case 0:
        r = chbevl_float_A(x, 0u, 3, A);
        break;
    case 1:
        r = chbevl_float_B(x, 0u, 5, B);
        break;
    default:
        r = 1e+02;
    }
    out_[i] = r;
}
