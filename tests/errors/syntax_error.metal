// A missing semicolon: libclang's diagnostic, in our format, stops the file.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 10:26: error: expected ';'
#include <metal_stdlib>
using namespace metal;

kernel void times_two(device const float* in [[buffer(0)]],
                      device float* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    out[i] = in[i] * 2.0f
}
