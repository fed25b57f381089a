// A helper that returns a value but has no return statement (PyTorch's philox4 multiple_rounds): its value is
// undefined in Metal and GLSL refuses it; an error naming it, not invalid GLSL.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 7:7: error: 'rounds' returns uint4 but has no return statement
#include <metal_stdlib>
using namespace metal;
uint4 rounds(uint4 ctr, uint n) {
    for (uint r = 0; r < n; ++r)
        ctr = ctr * 3u + 1u;
}
kernel void k(device uint4* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = rounds(x[i], 4u); }
