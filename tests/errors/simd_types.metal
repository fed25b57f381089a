// SIMD-group functions on types other than float, half, 8- to 32-bit integers and their vectors are reported by
// name, and so are bitwise reductions of floats.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:14: error: simd_sum on long is not supported yet
// EXPECT-ERROR: 13:14: error: simd_and on float is not supported yet
#include <metal_stdlib>
using namespace metal;

kernel void odd_types(device long* s [[buffer(0)]], device float* f [[buffer(1)]],
                      uint gid [[thread_position_in_grid]]) {
    long a = s[gid];
    s[gid] = simd_sum(a);
    f[gid] = simd_and(f[gid]);
}
