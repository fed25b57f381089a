// Threadgroup variables in a helper are an error with a location that names the variable (failure isolation: a
// kernel that does not use the helper still translates).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 10:23: error: threadgroup variables outside a kernel's body are not supported yet ('scratch')
// EXPECT-STDOUT: kernel independent
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

kernel void independent(device float* out [[buffer(0)]], uint gid [[thread_position_in_grid]]) {
    out[gid] = 2.0f * out[gid];
}
