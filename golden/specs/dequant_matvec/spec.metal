#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/dequant_matvec.json(header)"

#line 1 "samples/specs/dequant_matvec.json(signature)"
#define GROUP_SIZE 64
[[kernel]] void custom_kernel_dequant_matvec_64(
    const device uint8_t* w [[buffer(0)]],
    const device float16_t* scales [[buffer(1)]],
    const device float16_t* biases [[buffer(2)]],
    const device float* x [[buffer(3)]],
    const constant int* x_shape [[buffer(4)]],
    device float* out [[buffer(5)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]],
    uint thread_index_in_simdgroup [[thread_index_in_simdgroup]]) {
#line 1 "samples/specs/dequant_matvec.json(source)"
// out = dequantize(w) @ x for 4-bit weights: w is (N, K/2) uint8, element 2j in the low nibble of byte j,
// 2j+1 in the high one; each GROUP_SIZE elements of a row share a scale and a bias (value = scale * q + bias).
// One SIMD-group of 32 per row (grid 32 x N); lanes take byte columns in turn, simd_sum adds them up.
uint row = thread_position_in_grid.y;
uint lane = thread_index_in_simdgroup;
uint K = uint(x_shape[0]);
uint groups = K / GROUP_SIZE;
float acc = 0.0f;
for (uint j = lane; j < K / 2; j += 32) {
    uchar q = w[row * (K / 2) + j];
    uint g = (2 * j) / GROUP_SIZE;
    float sc = float(scales[row * groups + g]);
    float bi = float(biases[row * groups + g]);
    acc += (sc * float(q & 0xF) + bi) * x[2 * j] + (sc * float(q >> 4) + bi) * x[2 * j + 1];
}
acc = simd_sum(acc);
if (lane == 0)
    out[row] = acc;

#line 11 "samples/specs/dequant_matvec.json(signature)"
}
#undef GROUP_SIZE
