// With emulated SIMD-groups, SIMD-group functions inside a switch whose value differs between threads, or inside a
// do-while, are errors with a location (a switch on a value every thread shares translates: samples/simd_switch.metal).
// ARGS: --subgroup-size=8 %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: 13:5: error: a SIMD-group function or barrier in a switch statement is not supported with emulated SIMD-groups unless the switch's value is the same in every thread
// EXPECT-ERROR: 25:5: error: a SIMD-group function or barrier in a do-while loop is not supported
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
    x[gid] = v;
}

kernel void loops(device float* x [[buffer(0)]], uint gid [[thread_position_in_grid]]) {
    float v = x[gid];
    do {
        v = simd_sum(v);
    } while (v < 0.0f);
    x[gid] = v;
}
