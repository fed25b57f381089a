// With emulated SIMD-groups, a helper that calls SIMD-group functions runs in every thread of the threadgroup
// with a predicate (samples/simd_helpers.metal); called from an operand of ?:, && or ||, where only some threads
// evaluate it, it is an error at the call. Native 32-wide subgroups translate the same kernel.
// ARGS: --subgroup-size=16 %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: 16:30: error: 'row_total' (which calls SIMD-group functions or barriers) in an operand of ?:, && or ||
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

float row_total(float v) {
    return simd_sum(v);
}

kernel void totals(device float* x [[buffer(0)]], uint gid [[thread_position_in_grid]]) {
    x[gid] = x[gid] > 0.0f ? row_total(x[gid]) : 0.0f;
}
