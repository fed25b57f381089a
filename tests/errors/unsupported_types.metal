// Types not translated yet are named where they are used.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+7:38: error: bool in buffer memory (1 byte in Metal) is not supported yet (m)
// EXPECT-ERROR: @+11:37: error: bool in buffer memory (1 byte in Metal) is not supported yet (struct member)
#include <metal_stdlib>
using namespace metal;

struct Flagged { float v; bool on; };

kernel void flags(device const bool* m [[buffer(0)]], device float* y [[buffer(1)]],
                  uint i [[thread_position_in_grid]]) {
    y[i] = m[i] ? 1.0f : 0.0f;
}

kernel void flagged(device Flagged* f [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    f[i].v = 0.0f;
}
