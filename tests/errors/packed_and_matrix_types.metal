// Packed vectors and matrices (issue 4's remaining types) are reported by name where they are used, once per place.
// EXPECT-EXIT: 1
// (packed_float3 is translated now: samples/packed.metal)
// EXPECT-ERROR: 10:53: error: float4x4 is not supported yet (parameter 'transforms')
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

kernel void transform_points(device packed_float3* points [[buffer(0)]],
                             device const float4x4* transforms [[buffer(1)]],
                             uint i [[thread_position_in_grid]]) {
    points[i] = points[i];
}
