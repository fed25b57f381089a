#include <metal_stdlib>
using namespace metal;

// out[i] = 2 * in[i]: the smallest useful kernel, one thread per element.
kernel void times_two(device const float* in [[buffer(0)]],
                      device float* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    out[i] = in[i] * 2.0f;
}
