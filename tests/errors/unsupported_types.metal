// Types of later issues are named where they are used.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+6:34: error: bfloat is not supported yet
// EXPECT-ERROR: @+8:19: error: local pointer variables are not supported yet
// EXPECT-ERROR: @+7:23: error: pointer arithmetic, pointer values) is not supported yet
#include <metal_stdlib>
using namespace metal;

kernel void widen(device bfloat* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { }

kernel void walk(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    device float* p = x + i;
    p[0] = 1.0f;
}
