// Threadgroup variables belong to a kernel's body; in a helper they are an error with a location.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 8:23: error: threadgroup variables outside a kernel's body are not supported yet ('scratch')
#include <metal_stdlib>
using namespace metal;

float helper(float v) {
    threadgroup float scratch[4];
    scratch[0] = v;
    return scratch[0];
}

kernel void uses_helper(device float* out [[buffer(0)]], uint gid [[thread_position_in_grid]]) {
    out[gid] = helper(out[gid]);
}
