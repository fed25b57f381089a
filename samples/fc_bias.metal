#include <metal_stdlib>
using namespace metal;

// A matrix-vector product whose bias and activation are chosen by function constants, the way Metal libraries
// compile one kernel into several pipelines. Each constant is a Vulkan specialization constant (docs/interfaces.md).
constant bool has_bias [[function_constant(0)]];
constant int activation [[function_constant(1)]]; // 0: none, 1: relu
constant float out_scale [[function_constant(2)]];

kernel void matvec(device const float* w [[buffer(0)]],
                   device const float* x [[buffer(1)]],
                   device const float* bias [[buffer(2)]],
                   device float* y [[buffer(3)]],
                   constant uint& cols [[buffer(4)]],
                   uint row [[thread_position_in_grid]]) {
    float acc = 0.0f;
    for (uint k = 0; k < cols; k++) {
        acc += w[row * cols + k] * x[k];
    }
    if (has_bias) {
        acc += bias[row];
    }
    if (activation == 1) {
        acc = max(acc, 0.0f);
    }
    // a constant the host may leave undefined
    if (is_function_constant_defined(out_scale)) {
        acc *= out_scale;
    }
    y[row] = acc;
}
