// A name that was never declared.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 10:22: error: use of undeclared identifier 'scale'
#include <metal_stdlib>
using namespace metal;

kernel void scale_by(device const float* in [[buffer(0)]],
                     device float* out [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
    out[i] = in[i] * scale;
}
