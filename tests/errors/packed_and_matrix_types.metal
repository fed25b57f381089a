// Packed vectors and matrices (once issue 4's remaining types) translate, together too: no diagnostics.
// (packed_float3: samples/packed.metal and errors/packed_unsupported.metal; float4x4: samples/matrices.metal.)
// ARGS: --emit=reflect %s
// EXPECT-EXIT: 0
// EXPECT-STDOUT: scalarBlockLayout
#include <metal_stdlib>
using namespace metal;

kernel void transform_points(device packed_float3* points [[buffer(0)]],
                             device const float4x4* transforms [[buffer(1)]],
                             uint i [[thread_position_in_grid]]) {
    points[i] = (transforms[0] * float4(float3(points[i]), 1.0f)).xyz;
}
