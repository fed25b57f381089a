#include <metal_stdlib>
using namespace metal;

// bfloat storage with arithmetic through float: y = a * x + y.
kernel void bf_axpy(device const bfloat* x [[buffer(0)]],
                    device bfloat* y [[buffer(1)]],
                    constant float& a [[buffer(2)]],
                    uint i [[thread_position_in_grid]]) {
    float xv = x[i];
    y[i] = a * xv + float(y[i]);
}

// Conversions: float -> bfloat rounds to nearest even; bfloat -> float and half are exact or rounded once;
// as_type gives the bits.
kernel void bf_convert(device const float* f [[buffer(0)]],
                       device bfloat* b [[buffer(1)]],
                       device float* back [[buffer(2)]],
                       device half* h [[buffer(3)]],
                       device ushort* bits [[buffer(4)]],
                       uint i [[thread_position_in_grid]]) {
    bfloat v = f[i];
    b[i] = v;
    back[i] = float(v) * 2.0f;
    h[i] = half(float(v));
    bits[i] = as_type<ushort>(v);
}
