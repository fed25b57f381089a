// A function the prelude declares but does not translate yet is an error naming it, at the call: addsat has a
// builtins.def row with no GLSL form; pack_half_to_unorm4x8 is declared by <metal_pack> only.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+7:12: error: addsat is not supported yet
// EXPECT-ERROR: @+7:12: error: pack_half_to_unorm4x8 is not supported yet
#include <metal_stdlib>
using namespace metal;

kernel void saturating(device int* x [[buffer(0)]], device uint* y [[buffer(1)]],
                       uint i [[thread_position_in_grid]]) {
    x[i] = addsat(x[i], 7);
    y[i] = pack_half_to_unorm4x8(half4(0.5h));
}
