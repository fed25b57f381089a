#include <metal_stdlib>
using namespace metal;

// Several entry points in one library, in the three spellings users write.

static float relu_of(float x) {
    return x > 0.0f ? x : 0.0f;
}

// y = -x
kernel void negate(device const float* x [[buffer(0)]],
                   device float* y [[buffer(1)]],
                   uint i [[thread_position_in_grid]]) {
    y[i] = -x[i];
}

// y = max(x, 0), spelled with the C++ attribute form of `kernel`.
[[kernel]] void relu(device const float* x [[buffer(0)]],
                     device float* y [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
    y[i] = relu_of(x[i]);
}

// y = clamp(x, lo, hi) in torch.mps.compile_shader style: no [[buffer(n)]],
// so the buffers take indices in declaration order (x 0, y 1, lo 2, hi 3).
kernel void clamp_to(device const float* x,
                     device float* y,
                     constant float& lo,
                     constant float& hi,
                     uint i [[thread_position_in_grid]]) {
    y[i] = clamp(x[i], lo, hi);
}
