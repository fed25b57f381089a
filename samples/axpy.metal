#include <metal_stdlib>
using namespace metal;

// y = a * x + y (BLAS saxpy), updating y in place.
kernel void axpy(device const float* x [[buffer(0)]],
                 device float* y [[buffer(1)]],
                 constant float& a [[buffer(2)]],
                 uint i [[thread_position_in_grid]]) {
    y[i] = a * x[i] + y[i];
}
