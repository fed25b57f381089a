// A kernel that only a define (-D MINI_EXTRA=1) brings in, beside one always there.
#include <metal_stdlib>
using namespace metal;

#if MINI_EXTRA
kernel void mini_extra(device uint *x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    x[i] = i;
}
#endif

[[kernel]] void mini_always(device uint *x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    x[i] = 2u * i;
}
