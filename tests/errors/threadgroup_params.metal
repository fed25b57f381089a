// Threadgroup memory parameters need [[threadgroup(n)]] on a pointer, each index once.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 8:42: error: threadgroup parameter 'a' must be a pointer with [[threadgroup(n)]]
// EXPECT-ERROR: 10:42: error: threadgroup memory index 1 is used by two parameters
#include <metal_stdlib>
using namespace metal;

kernel void tg_params(threadgroup float* a,
                      threadgroup float* b [[threadgroup(1)]],
                      threadgroup float* c [[threadgroup(1)]],
                      device float* out [[buffer(0)]], uint gid [[thread_position_in_grid]]) {
    out[gid] = a[0] + b[0] + c[0];
}
