// Types of later issues are named where they are used.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+4:34: error: bfloat is not supported yet
#include <metal_stdlib>
using namespace metal;

kernel void widen(device bfloat* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { }

