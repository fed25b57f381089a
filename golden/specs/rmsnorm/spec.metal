#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/rmsnorm.json(header)"

#line 1 "samples/specs/rmsnorm.json(signature)"
[[kernel]] void custom_kernel_rmsnorm(
    const device float* x [[buffer(0)]],
    const constant int* x_shape [[buffer(1)]],
    const device float* w [[buffer(2)]],
    const constant float& eps [[buffer(3)]],
    device float* out [[buffer(4)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]],
    uint thread_index_in_simdgroup [[thread_index_in_simdgroup]]) {
#line 1 "samples/specs/rmsnorm.json(source)"
// One SIMD-group of 32 per row (grid 32 x rows): the sum of squares by simd_sum.
uint row = thread_position_in_grid.y;
uint lane = thread_index_in_simdgroup;
uint d = uint(x_shape[1]);
float acc = 0.0f;
for (uint i = lane; i < d; i += 32) {
    float v = x[row * d + i];
    acc += v * v;
}
acc = simd_sum(acc);
float scale = rsqrt(acc / float(d) + eps);
for (uint i = lane; i < d; i += 32)
    out[row * d + i] = x[row * d + i] * scale * w[i];

#line 9 "samples/specs/rmsnorm.json(signature)"
}
