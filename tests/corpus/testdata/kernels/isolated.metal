// Failure isolation: a clang error in a helper that one kernel uses stops that kernel only; the translator's
// note names it, and --syntax-only reports the error without translating.
#include <metal_stdlib>
using namespace metal;

static float mini_broken_helper(float x)
{
    return x * mini_undeclared_scale;
}

kernel void mini_broken(device float *x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    x[i] = mini_broken_helper(x[i]);
}

kernel void mini_intact(device float *x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    x[i] = x[i] + 2.0f;
}
