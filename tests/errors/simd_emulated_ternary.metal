// With emulated SIMD-groups (subgroups narrower than 32), a SIMD-group function evaluated in only some
// threads of an expression (an operand of ?:, && or ||) is an error naming the function and the width.
// ARGS: --subgroup-size=8 %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: 13:29: error: simd_sum in an operand of ?:, && or || is not supported with 8-wide subgroups
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

kernel void pick(device float* x [[buffer(0)]],
                 uint gid [[thread_position_in_grid]]) {
    float v = x[gid];
    x[gid] = v > 0.0f ? v : simd_sum(v);
}
