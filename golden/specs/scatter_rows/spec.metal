#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/scatter_rows.json(header)"

#line 1 "samples/specs/scatter_rows.json(signature)"
[[kernel]] void custom_kernel_scatter_rows(
    const device float* x [[buffer(0)]],
    const constant int* x_shape [[buffer(1)]],
    const constant int32_t* idx [[buffer(2)]],
    device float* out [[buffer(3)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]]) {
#line 1 "samples/specs/scatter_rows.json(source)"
// out[idx[r], :] = x[r, :]; rows of out that idx does not name keep init_value (grid D x R).
uint2 p = thread_position_in_grid.xy;
uint d = uint(x_shape[1]);
out[uint(idx[p.y]) * d + p.x] = x[p.y * d + p.x];

#line 7 "samples/specs/scatter_rows.json(signature)"
}
