#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8
// SNAPSHOT: --subgroup-size=16 --virtual-subgroups

// Numerically stable softmax over the rows of x, one threadgroup per row:
// the row's maximum (simd_max, then across SIMD-groups), then the sum of exp(x - max) (simd_sum, likewise).
// Launch: dispatchThreadgroups with one threadgroup per row.
kernel void softmax(device const float* x [[buffer(0)]],
                    device float* y [[buffer(1)]],
                    constant uint& cols [[buffer(2)]],
                    uint row [[threadgroup_position_in_grid]],
                    uint tid [[thread_index_in_threadgroup]],
                    uint threads [[threads_per_threadgroup]],
                    uint lane [[thread_index_in_simdgroup]],
                    uint simd_group [[simdgroup_index_in_threadgroup]],
                    uint simd_groups [[simdgroups_per_threadgroup]])
{
    threadgroup float shared_max[32];
    threadgroup float shared_sum[32];

    float m = -INFINITY;
    for (uint i = tid; i < cols; i += threads)
        m = max(m, x[row * cols + i]);
    m = simd_max(m);
    if (lane == 0)
        shared_max[simd_group] = m;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    m = simd_max(lane < simd_groups ? shared_max[lane] : -INFINITY);

    float s = 0.0f;
    for (uint i = tid; i < cols; i += threads)
        s += exp(x[row * cols + i] - m);
    s = simd_sum(s);
    if (lane == 0)
        shared_sum[simd_group] = s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    s = simd_sum(lane < simd_groups ? shared_sum[lane] : 0.0f);

    for (uint i = tid; i < cols; i += threads)
        y[row * cols + i] = exp(x[row * cols + i] - m) / s;
}
