#include <metal_stdlib>
using namespace metal;

// SiLU (swish) activation: x * sigmoid(x) = x / (1 + exp(-x)).
kernel void silu(device const float* in [[buffer(0)]],
                 device float* out [[buffer(1)]],
                 uint i [[thread_position_in_grid]]) {
    float x = in[i];
    out[i] = x / (1.0f + exp(-x));
}
