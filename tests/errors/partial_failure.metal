// One entry translates, one does not: exit 1 ("some failed"), the error names the bad one.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+10:37: error: not supported
#include <metal_stdlib>
using namespace metal;

kernel void good(device const float* x [[buffer(0)]],
                 device float* y [[buffer(1)]],
                 uint i [[thread_position_in_grid]]) {
    y[i] = x[i] + 1.0f;
}

kernel void bad(device atomic_uint* counter [[buffer(0)]],
                device const float* x [[buffer(1)]],
                uint i [[thread_position_in_grid]]) {
    if (x[i] > 0.0f) {
        atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
    }
}
