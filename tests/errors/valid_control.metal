// Control case: a valid kernel translates cleanly (exit 0, GLSL on stdout, no diagnostics).
// EXPECT-EXIT: 0
// EXPECT-STDOUT: #version 450
#include <metal_stdlib>
using namespace metal;

kernel void add_one(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] += 1.0f;
}
