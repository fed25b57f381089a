// GLSL has no recursion: a call cycle is an error at the call that closes it.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 9:16: error: recursion is not supported
#include <metal_stdlib>
using namespace metal;

static uint factorial(uint n) {
    if (n <= 1u) return 1u;
    return n * factorial(n - 1u);
}

kernel void factorials(device uint* out [[buffer(0)]],
                       uint i [[thread_position_in_grid]]) {
    out[i] = factorial(i % 12u);
}
