#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/strided.json(header)"

#line 1 "samples/specs/strided.json(signature)"
[[kernel]] void custom_kernel_strided(
    const device float* x [[buffer(0)]],
    const constant int* x_shape [[buffer(1)]],
    const constant int64_t* x_strides [[buffer(2)]],
    const constant int& x_ndim [[buffer(3)]],
    device float* out [[buffer(4)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]]) {
#line 1 "samples/specs/strided.json(source)"
// out = 2 x, row-contiguous, for x of any rank and strides: x is bound as it is stored and each element
// found through x_shape / x_strides / x_ndim (MLX's elem_to_loc), one thread per element.
uint elem = thread_position_in_grid.x;
uint rest = elem;
int64_t loc = 0;
for (int i = x_ndim - 1; i >= 0; i--) {
    loc += int64_t(rest % uint(x_shape[i])) * x_strides[i];
    rest /= uint(x_shape[i]);
}
out[elem] = 2.0f * x[loc];

#line 8 "samples/specs/strided.json(signature)"
}
