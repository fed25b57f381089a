// tests/selftest/test_corpus.py's synthetic library: two instances made by a macro in a header, a plain kernel,
// and a kernel the translator rejects (recursion: GLSL has none). Four entry points, three translate.
#include <metal_stdlib>
#include "mini_instances.h"
using namespace metal;

template <typename T>
[[kernel]] void mini_scale(device T *x [[buffer(0)]], constant T &a [[buffer(1)]],
                           uint i [[thread_position_in_grid]])
{
    x[i] = x[i] * a;
}

MINI_INSTANTIATE(float, float)
MINI_INSTANTIATE(int, int)

kernel void mini_plain(device float *x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    x[i] += 1.0f;
}

static float mini_fact(float n)
{
    return n <= 1.0f ? 1.0f : n * mini_fact(n - 1.0f);
}

kernel void mini_recursive(device float *x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    x[i] = mini_fact(x[i]);
}
