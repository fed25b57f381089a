// With emulated SIMD-groups, a helper that calls a SIMD-group function is an error at the call: the
// function must run in every thread of the threadgroup, which only the kernel's own body is arranged for.
// The same kernel translates for native 32-wide subgroups.
// ARGS: --subgroup-size=16 %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: 16:14: error: 'row_total' calls barriers or SIMD-group functions
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

float row_total(float v) {
    return simd_sum(v);
}

kernel void totals(device float* x [[buffer(0)]], uint gid [[thread_position_in_grid]]) {
    x[gid] = row_total(x[gid]);
}
