// Packed vectors and matrices (issue 4's remaining types) are reported by name where they are used, once per place.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 9:52: error: packed_float3 is not supported yet (parameter 'points')
// (float4x4 is supported since issue 4: samples/matrices.metal; its parameter below must give no error.)
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

kernel void transform_points(device packed_float3* points [[buffer(0)]],
                             device const float4x4* transforms [[buffer(1)]],
                             uint i [[thread_position_in_grid]]) {
    points[i] = points[i];
}
