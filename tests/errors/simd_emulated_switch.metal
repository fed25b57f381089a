// With emulated SIMD-groups, SIMD-group functions inside a switch or a do-while are errors with a location.
// ARGS: --subgroup-size=8 %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:5: error: a SIMD-group function or barrier in a switch statement is not supported
// EXPECT-ERROR: 19:5: error: a SIMD-group function or barrier in a do-while loop is not supported
#include <metal_stdlib>
using namespace metal;

kernel void branches(device float* x [[buffer(0)]], uint gid [[thread_position_in_grid]],
                     uint lane [[thread_index_in_simdgroup]]) {
    float v = x[gid];
    switch (lane % 2) {
    case 0:
        v = simd_max(v);
        break;
    default:
        break;
    }
    do {
        v = simd_sum(v);
    } while (v < 0.0f);
    x[gid] = v;
}
