#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/rope.json(header)"

#line 1 "samples/specs/rope.json(signature)"
[[kernel]] void custom_kernel_rope(
    const device float* x [[buffer(0)]],
    const constant int* x_shape [[buffer(1)]],
    const device float* cos_t [[buffer(2)]],
    const device float* sin_t [[buffer(3)]],
    device float* out [[buffer(4)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]]) {
#line 1 "samples/specs/rope.json(source)"
// Multi-head rotary embedding (rotate-half form) of x with shape (B, H, S, D) over a 3-D grid:
// x = pair index j < D/2, y = position s, z = batch * head. cos_t and sin_t are (S, D/2) tables.
uint3 p = thread_position_in_grid;
uint S = uint(x_shape[2]);
uint D = uint(x_shape[3]);
uint half_d = D / 2;
uint base = (p.z * S + p.y) * D;
float c = cos_t[p.y * half_d + p.x];
float s = sin_t[p.y * half_d + p.x];
float a = x[base + p.x];
float b = x[base + p.x + half_d];
out[base + p.x] = a * c - b * s;
out[base + p.x + half_d] = a * s + b * c;

#line 8 "samples/specs/rope.json(signature)"
}
