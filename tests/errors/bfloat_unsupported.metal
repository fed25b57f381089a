// What bfloat and as_type still refuse, each at its place: multi-component swizzles of bfloat vectors (not declared),
// the value of a bfloat x++, SIMD-group functions on bfloat.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:21: error: no member named 'xy' in 'bfloat4'
// EXPECT-ERROR: 16:12: error: the value of a bfloat x++ is not supported yet (write ++x)
// EXPECT-ERROR: 20:12: error: simd_sum on bfloat is not supported yet (float, half, 8- to 32-bit integers and their vectors are)
#include <metal_stdlib>
using namespace metal;

kernel void swizzle(device bfloat4* v [[buffer(0)]], device float2* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    bfloat4 x = v[i];
    o[i] = float2(x.xy);
}

kernel void postfix_value(device bfloat* b [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    b[i] = b[i]++;
}

kernel void simd_bfloat(device bfloat* b [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    b[i] = simd_sum(b[i]);
}

