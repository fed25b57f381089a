#version 450
// Translated by mtl2glsl 0.1.0 from statements.metal, kernel statements

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { int in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint n;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

precise float accumulate(inout float acc, float x)
{
    acc += x;
    return acc;
}

int collatz_steps(uint n)
{
    int steps = 0;
    while (n != 1u && steps < 200)
    {
        n = (n % 2u == 0u) ? n / 2u : 3u * n + 1u;
        ++steps;
    }
    return steps;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint n = mtl_params.n;
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
    {
        return;
    }
    int v = in_[i];
    float acc = 0.0;
    for (int k = 0; k < 16; k++)
    {
        if (mtl_rem(k, 3) == 1)
        {
            continue;
        }
        if (k > (v & 15))
        {
            break;
        }
        accumulate(acc, float(k));
    }
    int countdown = v & 7;
    int iters = 0;
    do
    {
        iters++;
        countdown--;
    }
    while (countdown > 0);
    precise float s;
    switch (v & 3)
    {
    case 0:
        s = 1.0;
        break;
    case 1:
    case 2:
        s = 2.0;
        break;
    default:
        s = -1.0;
        break;
    }
    float w = 1.0;
    {
        precise float w = 2.0 * s;
        acc += w;
        {
            int v = 3;
            acc -= float(v);
        }
    }
    w *= 3.0;
    w -= 0.5;
    w /= 2.0;
    uint bits = uint(v);
    bits = uint(bits << 2);
    bits |= 1u;
    bits ^= 5u;
    bits = uint(bits >> 1);
    bits &= 255u;
    int r = v;
    r = mtl_rem(r, 7);
    --r;
    int steps = collatz_steps(uint(v & 63) + 1u);
    out_[4u * i + 0u] = acc;
    out_[4u * i + 1u] = float(iters) + s;
    out_[4u * i + 2u] = w + float(bits) + float(r);
    out_[4u * i + 3u] = v < 0 ? -float(steps) : float(steps);
}
