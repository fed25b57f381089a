// simdgroup_matrix is a later issue: an error at the declaration, never silent output.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+9:24: error: not supported
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

kernel void tile_multiply(device const float* a [[buffer(0)]],
                          device const float* b [[buffer(1)]],
                          device float* c [[buffer(2)]],
                          uint2 gid [[threadgroup_position_in_grid]]) {
    simdgroup_float8x8 ma, mb, mc;
    simdgroup_load(ma, a + gid.y * 64, 8);
    simdgroup_load(mb, b + gid.x * 64, 8);
    simdgroup_multiply(mc, ma, mb);
    simdgroup_store(mc, c + (gid.y * 8 + gid.x) * 64, 8);
}
