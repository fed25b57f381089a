#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8
// SNAPSHOT: --subgroup-size=64

// RMSNorm, one row per SIMD-group: y = x / sqrt(mean(x^2) + eps) * weight.
// Each lane strides over the row by 32; simd_sum joins the partial sums of squares.
// Launch: dispatchThreads with 32 threads per row (any threadgroup size that is a multiple of 32).
kernel void rmsnorm(device const float* x [[buffer(0)]],
                    device const float* weight [[buffer(1)]],
                    device float* y [[buffer(2)]],
                    constant uint& rows [[buffer(3)]],
                    constant uint& dim [[buffer(4)]],
                    constant float& eps [[buffer(5)]],
                    uint gid [[thread_position_in_grid]],
                    uint lane [[thread_index_in_simdgroup]])
{
    uint row = gid / 32;
    if (row >= rows)
        return;
    float sum_sq = 0.0f;
    for (uint i = lane; i < dim; i += 32) {
        float v = x[row * dim + i];
        sum_sq += v * v;
    }
    sum_sq = simd_sum(sum_sq);
    float scale = rsqrt(sum_sq / float(dim) + eps);
    for (uint i = lane; i < dim; i += 32)
        y[row * dim + i] = x[row * dim + i] * scale * weight[i];
}
