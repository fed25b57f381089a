// Matrices Metal does not have (int elements, five columns) and constructor calls with the wrong parts are named
// where they are written.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+9:27: error: matrix<int, 2, 2> is not supported (Metal's matrices are float or half
// EXPECT-ERROR: @+9:25: error: matrix<float, 5, 4> is not supported
// EXPECT-ERROR: @+9:18: error: float4x4 constructor needs 4 columns of float4 or 16 scalars
// EXPECT-ERROR: @+9:31: error: matrix<float, 5, 4> is not supported
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

kernel void bad_matrices(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    matrix<int, 2, 2> a = matrix<int, 2, 2>(1);
    matrix<float, 5, 4> b;
    float4x4 c = float4x4(float4(1.0f), 2.0f, 3.0f);
    out[i] = float(a[0][0]) + b[0][0] + c[0][0];
}
