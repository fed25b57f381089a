"""Metal kernels in torch.mps.compile_shader style, run by mtl2glsl on Vulkan.

On a Mac this script runs on MPS by changing only the import below (docs/python.md shows the diff):
    from torch.mps import compile_shader
Kernels write their output tensors in place; `threads` counts threads (dispatchThreads) and defaults to the first
tensor's element count. tests/python/test_samples.py checks each function against torch on the CPU.
"""
import torch

from mtl2glsl.torch import compile_shader

device = "mps" if torch.backends.mps.is_available() else "cpu"

lib = compile_shader("""
#include <metal_stdlib>
using namespace metal;

// ---- elementwise: SiLU for float and half, instantiated by [[host_name]] ----
template <typename T>
kernel void silu(device const T* x, device T* y, uint i [[thread_position_in_grid]]) {
    float v = float(x[i]);
    y[i] = T(v / (1.0f + exp(-v)));
}
template [[host_name("silu_float")]] kernel void silu<float>(device const float*, device float*, uint);
template [[host_name("silu_half")]] kernel void silu<half>(device const half*, device half*, uint);

// ---- RMSNorm: one threadgroup per row; simd_sum, then the SIMD-group sums through threadgroup memory ----
kernel void rmsnorm(device const float* x [[buffer(0)]],
                    device const float* w [[buffer(1)]],
                    device float* y [[buffer(2)]],
                    constant uint& dim [[buffer(3)]],
                    constant float& eps [[buffer(4)]],
                    uint2 tid [[thread_position_in_threadgroup]],
                    uint2 tg [[threadgroup_position_in_grid]],
                    uint2 tpg [[threads_per_threadgroup]],
                    uint lane [[thread_index_in_simdgroup]],
                    uint sg [[simdgroup_index_in_threadgroup]],
                    uint nsg [[simdgroups_per_threadgroup]]) {
    threadgroup float partial[32];
    const device float* row = x + tg.y * dim;
    float ss = 0.0f;
    for (uint i = tid.x; i < dim; i += tpg.x)
        ss += row[i] * row[i];
    ss = simd_sum(ss);
    if (lane == 0)
        partial[sg] = ss;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float total = simd_sum(lane < nsg ? partial[lane] : 0.0f);
    float inv = rsqrt(total / float(dim) + eps);
    for (uint i = tid.x; i < dim; i += tpg.x)
        y[tg.y * dim + i] = row[i] * inv * w[i];
}

// ---- softmax: one SIMD-group per row (threads = [32, rows]) ----
kernel void softmax_row(device const float* x, device float* y, constant uint& n,
                        uint2 pos [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]]) {
    const device float* r = x + pos.y * n;
    float m = -INFINITY;
    for (uint i = lane; i < n; i += 32) m = max(m, r[i]);
    m = simd_max(m);
    float s = 0.0f;
    for (uint i = lane; i < n; i += 32) s += exp(r[i] - m);
    s = simd_sum(s);
    for (uint i = lane; i < n; i += 32) y[pos.y * n + i] = exp(r[i] - m) / s;
}

// ---- RoPE (interleaved pairs) of q (B*H, S, D) on a 3-D grid [D/2, S, B*H] with cos/sin tables (S, D/2) ----
kernel void rope(device const float* q, device const float* cos_t, device const float* sin_t, device float* out,
                 constant uint3& dims,   // S, D, unused
                 uint3 g [[thread_position_in_grid]]) {
    uint S = dims.x, D = dims.y;
    uint at = (g.z * S + g.y) * D + 2 * g.x;
    float c = cos_t[g.y * (D / 2) + g.x], s = sin_t[g.y * (D / 2) + g.x];
    float2 v = float2(q[at], q[at + 1]);
    out[at] = v.x * c - v.y * s;
    out[at + 1] = v.x * s + v.y * c;
}

// ---- 4-bit dequantizing matvec: one SIMD-group per output row; packed weights read as uint16 (4 nibbles) ----
kernel void qmv4(device const uint16_t* w, device const half* scales, device const half* biases,
                 device const float* x, device float* y, constant uint& K, constant uint& group,
                 uint2 pos [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]]) {
    uint row = pos.y, words = K / 4, groups = K / group;
    float acc = 0.0f;
    for (uint j = lane; j < words; j += 32) {
        uint16_t q = w[row * words + j];
        uint k = 4 * j;
        float sc = float(scales[row * groups + k / group]);
        float bi = float(biases[row * groups + k / group]);
        for (uint n = 0; n < 4; n++)
            acc += (sc * float((q >> (4 * n)) & 0xf) + bi) * x[k + n];
    }
    acc = simd_sum(acc);
    if (lane == 0)
        y[row] = acc;
}

// ---- pipeline: histogram -> exclusive scan -> scatter (a counting sort) ----
kernel void histogram(device const uint* keys, device atomic_uint* counts, uint i [[thread_position_in_grid]]) {
    atomic_fetch_add_explicit(&counts[keys[i]], 1u, memory_order_relaxed);
}
kernel void exclusive_scan(device const uint* counts, device uint* offsets, constant uint& n,
                           uint t [[thread_position_in_threadgroup]], uint tpg [[threads_per_threadgroup]]) {
    threadgroup uint buf[1024];
    buf[t] = t > 0 && t - 1 < n ? counts[t - 1] : 0u;   // shifted by one: exclusive
    for (uint d = 1; d < tpg; d *= 2) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        uint add = t >= d ? buf[t - d] : 0u;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        buf[t] += add;
    }
    if (t < n)
        offsets[t] = buf[t];
}
kernel void scatter(device const uint* keys, device const uint* offsets, device atomic_uint* cursor,
                    device uint* sorted_keys, device uint* order, uint i [[thread_position_in_grid]]) {
    uint k = keys[i];
    uint at = offsets[k] + atomic_fetch_add_explicit(&cursor[k], 1u, memory_order_relaxed);
    sorted_keys[at] = k;
    order[at] = i;
}

// ---- bfloat: y = bfloat(a * x) with a float scale ----
kernel void scale_bf16(device const bfloat* x, device bfloat* y, constant float& a,
                       uint i [[thread_position_in_grid]]) {
    y[i] = bfloat(a * float(x[i]));
}
""")


def silu(x):
    y = torch.empty_like(x)
    getattr(lib, "silu_float" if x.dtype == torch.float32 else "silu_half")(x, y)
    return y


def rmsnorm(x, w, eps=1e-5, group=128):
    rows, dim = x.shape
    y = torch.empty_like(x)
    lib.rmsnorm(x, w, y, dim, eps, threads=(group, rows), group_size=(group, 1))
    return y


def softmax(x):
    rows, n = x.shape
    y = torch.empty_like(x)
    lib.softmax_row(x, y, n, threads=(32, rows), group_size=(32, 1))
    return y


def rope(q, cos_t, sin_t):
    BH, S, D = q.shape
    out = torch.empty_like(q)
    lib.rope(q, cos_t, sin_t, out, [S, D, 0], threads=(D // 2, S, BH), group_size=(4, 4, 2))
    return out


def qmv4(w, scales, biases, x, group=32):
    N = w.shape[0]
    y = torch.empty(N, dtype=torch.float32, device=x.device)
    lib.qmv4(w, scales, biases, x, y, x.shape[0], group, threads=(32, N), group_size=(32, 2))
    return y


def counting_sort(keys, counts, offsets, cursor, sorted_keys, order):
    """Three kernels over arrays given by the caller (counts and cursor zeroed): torch tensors, or mtl2glsl
    DeviceArrays that stay on the device from one kernel to the next."""
    n, n_bins = keys.shape[0], counts.shape[0]
    lib.histogram(keys, counts)
    lib.exclusive_scan(counts, offsets, n_bins, threads=n_bins, group_size=n_bins)
    lib.scatter(keys, offsets, cursor, sorted_keys, order, threads=n)


def scale_bf16(x, a):
    y = torch.empty_like(x)
    lib.scale_bf16(x, y, a)
    return y


if __name__ == "__main__":
    x = torch.randn(4, 1000, device=device)
    print("softmax rows sum to", softmax(x).sum(dim=1))
    print("silu", silu(torch.linspace(-3, 3, 7, device=device)))
