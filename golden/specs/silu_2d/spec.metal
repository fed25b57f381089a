#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/silu_2d.json(header)"

#line 1 "samples/specs/silu_2d.json(signature)"
#define T float
[[kernel]] void custom_kernel_silu_2d_float(
    const device float* x [[buffer(0)]],
    const constant int* x_shape [[buffer(1)]],
    device float* out [[buffer(2)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]]) {
#line 1 "samples/specs/silu_2d.json(source)"
// SiLU over a 2-D grid: x = column, y = row; the row length comes from x_shape.
uint2 p = thread_position_in_grid.xy;
uint i = p.y * uint(x_shape[1]) + p.x;
float v = float(x[i]);
out[i] = T(v / (1.0f + exp(-v)));

#line 7 "samples/specs/silu_2d.json(signature)"
}
#undef T
