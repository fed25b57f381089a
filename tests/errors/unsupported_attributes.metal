// An attribute the translator does not take yet, on a parameter or on the kernel, is an error at its place, and
// that kernel is not written (it was, with exit 1, and corpus counts took it as translated); the other kernels are
// (`[[buffer(1), function_constant(has_bias)]]` is taken: the parameter exists only when has_bias is true).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 21:1: error: attribute [[visible]] is not supported yet
// EXPECT-STDOUT: kernel plain
// EXPECT-STDOUT: kernel optional_bias
// EXPECT-NOT-STDOUT: kernel visible_one
#include <metal_stdlib>
using namespace metal;

constant bool has_bias [[function_constant(0)]];

kernel void plain(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = 1.0f; }

kernel void optional_bias(device float* x [[buffer(0)]],
                          const device float* bias [[buffer(1), function_constant(has_bias)]],
                          uint i [[thread_position_in_grid]]) { x[i] = has_bias ? bias[i] : 0.0f; }

[[kernel]]
[[visible]] void visible_one(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = 2.0f; }
