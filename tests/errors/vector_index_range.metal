// A constant index past the end of a vector, array or matrix is an error at the subscript (GLSL rejects it; the
// translator wrote it and exited 0).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:12: error: index 7 is out of range for float4 (4 elements)
// EXPECT-ERROR: 12:19: error: index 4 is out of range for float[4] (4 elements)
#include <metal_stdlib>
using namespace metal;

kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float4 v = float4(1.0f);
    float a[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    o[i] = v[7] + a[4] + v[3] + a[0];
}
