// One entry translates, one does not: exit 1 ("some failed"), the error names the bad one.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+15:9: error: pointer 'p' points into 'x' and into 'z'
#include <metal_stdlib>
using namespace metal;

kernel void good(device const float* x [[buffer(0)]],
                 device float* y [[buffer(1)]],
                 uint i [[thread_position_in_grid]]) {
    y[i] = x[i] + 1.0f;
}

kernel void bad(device float* y [[buffer(0)]],
                uint i [[thread_position_in_grid]]) {
    threadgroup float x[8], z[8];
    threadgroup float* p = x;
    if (i > 4)
        p = z;
    y[i] = p[i];
}
