#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8

// Two-pass LayerNorm, one threadgroup per row: the mean first, then the variance of (x - mean).
// Each pass reduces with simd_sum inside SIMD-groups and across them through threadgroup memory.
// Launch: dispatchThreadgroups with one threadgroup per row, any threadgroup size up to 1024.
kernel void layernorm(device const float* x [[buffer(0)]],
                      device const float* gamma [[buffer(1)]],
                      device const float* beta [[buffer(2)]],
                      device float* y [[buffer(3)]],
                      constant uint& dim [[buffer(4)]],
                      constant float& eps [[buffer(5)]],
                      uint row [[threadgroup_position_in_grid]],
                      uint tid [[thread_index_in_threadgroup]],
                      uint threads [[threads_per_threadgroup]],
                      uint lane [[thread_index_in_simdgroup]],
                      uint simd_group [[simdgroup_index_in_threadgroup]],
                      uint simd_groups [[simdgroups_per_threadgroup]])
{
    threadgroup float partial[32];
    threadgroup float stats[2];

    // pass 1: mean
    float sum = 0.0f;
    for (uint i = tid; i < dim; i += threads)
        sum += x[row * dim + i];
    sum = simd_sum(sum);
    if (lane == 0)
        partial[simd_group] = sum;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (simd_group == 0) {
        float t = lane < simd_groups ? partial[lane] : 0.0f;
        t = simd_sum(t);
        if (lane == 0)
            stats[0] = t / float(dim);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float mean = stats[0];

    // pass 2: variance around the mean
    float sq = 0.0f;
    for (uint i = tid; i < dim; i += threads) {
        float d = x[row * dim + i] - mean;
        sq += d * d;
    }
    sq = simd_sum(sq);
    if (lane == 0)
        partial[simd_group] = sq;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (simd_group == 0) {
        float t = lane < simd_groups ? partial[lane] : 0.0f;
        t = simd_sum(t);
        if (lane == 0)
            stats[1] = rsqrt(t / float(dim) + eps);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float inv_std = stats[1];

    for (uint i = tid; i < dim; i += threads)
        y[row * dim + i] = (x[row * dim + i] - mean) * inv_std * gamma[i] + beta[i];
}
