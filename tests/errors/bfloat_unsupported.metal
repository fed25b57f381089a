// What bfloat and as_type still refuse, each at its place: multi-component swizzles of bfloat vectors (not declared),
// the value of a bfloat x++, SIMD-group functions on bfloat, as_type between 64-bit and 32-bit components of 128 bits.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 13:12: error: no member named 'xy' in 'bfloat4'
// EXPECT-ERROR: 17:12: error: the value of a bfloat x++ is not supported yet (write ++x)
// EXPECT-ERROR: 21:12: error: simd_sum on bfloat is not supported yet (float, half, int, uint and their vectors are)
// EXPECT-ERROR: 25:12: error: as_type from long2 to int4 is not supported yet
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

kernel void wide_as_type(device const long2* l [[buffer(0)]], device int4* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    o[i] = as_type<int4>(l[i]);
}
