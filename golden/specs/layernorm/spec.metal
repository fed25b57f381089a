#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/layernorm.json(header)"

#line 1 "samples/specs/layernorm.json(signature)"
[[kernel]] void custom_kernel_layernorm(
    const device float* x [[buffer(0)]],
    const constant int* x_shape [[buffer(1)]],
    const device float* w [[buffer(2)]],
    const device float* b [[buffer(3)]],
    const constant float& eps [[buffer(4)]],
    device float* out [[buffer(5)]],
    uint3 threadgroup_position_in_grid [[threadgroup_position_in_grid]],
    uint3 threads_per_threadgroup [[threads_per_threadgroup]],
    uint thread_index_in_threadgroup [[thread_index_in_threadgroup]],
    uint thread_index_in_simdgroup [[thread_index_in_simdgroup]],
    uint simdgroup_index_in_threadgroup [[simdgroup_index_in_threadgroup]],
    uint simdgroups_per_threadgroup [[simdgroups_per_threadgroup]]) {
#line 1 "samples/specs/layernorm.json(source)"
// Two-pass LayerNorm, one threadgroup per row (grid TG x rows): the mean, then the variance about it, each
// reduced by simd_sum within SIMD-groups and across them through threadgroup memory.
threadgroup float partial[32];
uint row = threadgroup_position_in_grid.y;
uint tid = thread_index_in_threadgroup;
uint threads = threads_per_threadgroup.x;
uint lane = thread_index_in_simdgroup;
uint sg = simdgroup_index_in_threadgroup;
uint n_sg = simdgroups_per_threadgroup;
uint d = uint(x_shape[1]);
uint base = row * d;
float s = 0.0f;
for (uint i = tid; i < d; i += threads)
    s += x[base + i];
s = simd_sum(s);
if (lane == 0)
    partial[sg] = s;
threadgroup_barrier(mem_flags::mem_threadgroup);
float mean = simd_sum(lane < n_sg ? partial[lane] : 0.0f) / float(d);
threadgroup_barrier(mem_flags::mem_threadgroup);
float v = 0.0f;
for (uint i = tid; i < d; i += threads) {
    float t = x[base + i] - mean;
    v += t * t;
}
v = simd_sum(v);
if (lane == 0)
    partial[sg] = v;
threadgroup_barrier(mem_flags::mem_threadgroup);
float var = simd_sum(lane < n_sg ? partial[lane] : 0.0f) / float(d);
float inv = rsqrt(var + eps);
for (uint i = tid; i < d; i += threads)
    out[base + i] = (x[base + i] - mean) * inv * w[i] + b[i];

#line 14 "samples/specs/layernorm.json(signature)"
}
