#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/softmax.json(header)"

#line 1 "samples/specs/softmax.json(signature)"
[[kernel]] void custom_kernel_softmax(
    const device float* x [[buffer(0)]],
    const constant int* x_shape [[buffer(1)]],
    device float* out [[buffer(2)]],
    uint3 threadgroup_position_in_grid [[threadgroup_position_in_grid]],
    uint3 threads_per_threadgroup [[threads_per_threadgroup]],
    uint thread_index_in_threadgroup [[thread_index_in_threadgroup]],
    uint thread_index_in_simdgroup [[thread_index_in_simdgroup]],
    uint simdgroup_index_in_threadgroup [[simdgroup_index_in_threadgroup]],
    uint simdgroups_per_threadgroup [[simdgroups_per_threadgroup]]) {
#line 1 "samples/specs/softmax.json(source)"
// Stable softmax, one threadgroup per row (grid TG x rows): row maximum and sum of exponentials by
// simd_max / simd_sum within SIMD-groups, then across them through threadgroup memory.
threadgroup float partial_max[32];
threadgroup float partial_sum[32];
uint row = threadgroup_position_in_grid.y;
uint tid = thread_index_in_threadgroup;
uint threads = threads_per_threadgroup.x;
uint lane = thread_index_in_simdgroup;
uint sg = simdgroup_index_in_threadgroup;
uint n_sg = simdgroups_per_threadgroup;
uint cols = uint(x_shape[1]);
uint base = row * cols;
float m = -INFINITY;
for (uint i = tid; i < cols; i += threads)
    m = max(m, x[base + i]);
m = simd_max(m);
if (lane == 0)
    partial_max[sg] = m;
threadgroup_barrier(mem_flags::mem_threadgroup);
m = simd_max(lane < n_sg ? partial_max[lane] : -INFINITY);
float s = 0.0f;
for (uint i = tid; i < cols; i += threads)
    s += exp(x[base + i] - m);
s = simd_sum(s);
if (lane == 0)
    partial_sum[sg] = s;
threadgroup_barrier(mem_flags::mem_threadgroup);
s = simd_sum(lane < n_sg ? partial_sum[lane] : 0.0f);
for (uint i = tid; i < cols; i += threads)
    out[row * cols + i] = exp(x[base + i] - m) / s;

#line 11 "samples/specs/softmax.json(signature)"
}
