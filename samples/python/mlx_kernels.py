"""Metal kernels in MLX's mx.fast.metal_kernel style, run by mtl2glsl on Vulkan.

On a Mac this script runs with MLX by changing only the import below (docs/python.md shows the diff):
    import mlx.core as mx
Everything else is MLX's API: mx.fast.metal_kernel, mx.array, mx.float32, ...; arrays stay on the device between
kernels. tests/python/test_samples.py checks each function against NumPy.
"""
import numpy as np

import mtl2glsl.mlx as mx

# ---- elementwise: GELU (tanh form) in the input's type T, computed in float ----
gelu_kernel = mx.fast.metal_kernel(
    name="gelu",
    input_names=["x"],
    output_names=["out"],
    source="""
        uint i = thread_position_in_grid.x;
        if (i >= x_size) return;
        float v = float(x[i]);
        float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
        out[i] = T(0.5f * v * (1.0f + precise::tanh(inner)));
    """,
)


def gelu(x):
    # x_size is a template argument (an int): MLX writes `template <typename T, int x_size>`
    return gelu_kernel(inputs=[x], template=[("T", x.dtype), ("x_size", x.size)], grid=(x.size, 1, 1),
                       threadgroup=(256, 1, 1), output_shapes=[x.shape], output_dtypes=[x.dtype])[0]


# ---- RMSNorm: one SIMD-group per row, the sum of squares by simd_sum; eps is a 0-d input ----
rmsnorm_kernel = mx.fast.metal_kernel(
    name="rmsnorm_simd",
    input_names=["x", "weight", "eps"],
    output_names=["y"],
    source="""
        uint row = thread_position_in_grid.y;
        uint lane = thread_index_in_simdgroup;
        uint d = uint(x_shape[1]);
        const device float* xr = x + row * d;
        float ss = 0.0f;
        for (uint i = lane; i < d; i += 32)
            ss += xr[i] * xr[i];
        ss = simd_sum(ss);
        float inv = metal::rsqrt(ss / float(d) + eps);
        for (uint i = lane; i < d; i += 32)
            y[row * d + i] = xr[i] * inv * weight[i];
    """,
)


def rmsnorm(x, weight, eps=1e-5):
    rows = x.shape[0]
    return rmsnorm_kernel(inputs=[x, weight, np.float32(eps)], grid=(32, rows, 1), threadgroup=(32, 2, 1),
                          output_shapes=[x.shape], output_dtypes=[mx.float32])[0]


# ---- softmax over the last axis: one threadgroup per row, reductions across SIMD-groups in threadgroup memory ----
softmax_kernel = mx.fast.metal_kernel(
    name="softmax_rows",
    input_names=["x"],
    output_names=["out"],
    source="""
        threadgroup float red_max[32];
        threadgroup float red_sum[32];
        uint row = threadgroup_position_in_grid.y;
        uint t = thread_position_in_threadgroup.x;
        uint nt = threads_per_threadgroup.x;
        uint lane = thread_index_in_simdgroup, sg = simdgroup_index_in_threadgroup;
        uint nsg = simdgroups_per_threadgroup;
        uint n = uint(x_shape[x_ndim - 1]);
        const device T* xr = x + row * n;
        float m = -INFINITY;
        for (uint i = t; i < n; i += nt) m = max(m, float(xr[i]));
        m = simd_max(m);
        if (lane == 0) red_max[sg] = m;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        m = simd_max(lane < nsg ? red_max[lane] : -INFINITY);
        float s = 0.0f;
        for (uint i = t; i < n; i += nt) s += fast::exp(float(xr[i]) - m);
        s = simd_sum(s);
        if (lane == 0) red_sum[sg] = s;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        s = simd_sum(lane < nsg ? red_sum[lane] : 0.0f);
        for (uint i = t; i < n; i += nt) out[row * n + i] = T(fast::exp(float(xr[i]) - m) / s);
    """,
)


def softmax(x, threads=128):
    rows = x.size // x.shape[-1]
    return softmax_kernel(inputs=[x], template=[("T", x.dtype)], grid=(threads, rows, 1),
                          threadgroup=(threads, 1, 1), output_shapes=[x.shape], output_dtypes=[x.dtype])[0]


# ---- RoPE (rotate-half) of x (B, H, S, D) on a 3-D grid: x = pair, y = position, z = batch * head ----
rope_kernel = mx.fast.metal_kernel(
    name="rope3d",
    input_names=["x", "positions"],
    output_names=["out"],
    source="""
        uint3 g = thread_position_in_grid;
        uint S = uint(x_shape[2]), D = uint(x_shape[3]), h = D / 2;
        float freq = metal::pow(BASE, -float(2 * g.x) / float(D));
        float angle = float(positions[g.y]) * freq;
        float c = metal::precise::cos(angle), s = metal::precise::sin(angle);
        uint at = (g.z * S + g.y) * D + g.x;
        float a = x[at], b = x[at + h];
        out[at] = a * c - b * s;
        out[at + h] = a * s + b * c;
    """,
    header="#define BASE 10000.0f",
)


def rope(x, positions):
    B, H, S, D = x.shape
    return rope_kernel(inputs=[x, positions], grid=(D // 2, S, B * H), threadgroup=(8, 4, 2),
                       output_shapes=[x.shape], output_dtypes=[mx.float32])[0]


# ---- 4-bit dequantizing matrix-vector product: w (N, K/2) uint8, per-group half scales and biases ----
qmv_kernel = mx.fast.metal_kernel(
    name="qmv4",
    input_names=["w", "scales", "biases", "x"],
    output_names=["y"],
    source="""
        uint row = threadgroup_position_in_grid.y * simdgroups_per_threadgroup + simdgroup_index_in_threadgroup;
        uint lane = thread_index_in_simdgroup;
        uint K = uint(x_shape[0]), bytes_per_row = K / 2, groups = K / GROUP;
        float acc = 0.0f;
        for (uint j = lane; j < bytes_per_row; j += 32) {
            uint8_t q = w[row * bytes_per_row + j];
            uint grp = (2 * j) / GROUP;
            float sc = float(scales[row * groups + grp]), bi = float(biases[row * groups + grp]);
            acc += (sc * float(q & 0xf) + bi) * x[2 * j] + (sc * float(q >> 4) + bi) * x[2 * j + 1];
        }
        acc = simd_sum(acc);
        if (lane == 0) y[row] = acc;
    """,
)


def qmv(w, scales, biases, x, group=32):
    N = w.shape[0]
    # two rows (SIMD-groups) per threadgroup when N is even
    per = 2 if N % 2 == 0 else 1
    return qmv_kernel(inputs=[w, scales, biases, x], template=[("GROUP", group)], grid=(32 * per, N // per, 1),
                      threadgroup=(32 * per, 1, 1), output_shapes=[(N,)], output_dtypes=[mx.float32])[0]


# ---- pipeline: histogram -> exclusive prefix sum -> scatter (a counting sort); arrays stay on the device ----
histogram_kernel = mx.fast.metal_kernel(
    name="histogram",
    input_names=["keys"],
    output_names=["counts"],
    source="""
        uint i = thread_position_in_grid.x;
        if (i < uint(keys_shape[0]))
            atomic_fetch_add_explicit(&counts[keys[i]], 1u, memory_order_relaxed);
    """,
    atomic_outputs=True,
)

scan_kernel = mx.fast.metal_kernel(
    name="exclusive_scan",
    input_names=["counts"],
    output_names=["offsets"],
    source="""
        // one threadgroup: each SIMD-group scans its 32 values, then the SIMD-group totals are scanned
        threadgroup uint totals[32];
        uint t = thread_position_in_threadgroup.x;
        uint n = uint(counts_shape[0]);
        uint lane = thread_index_in_simdgroup, sg = simdgroup_index_in_threadgroup;
        uint v = t < n ? counts[t] : 0u;
        uint inside = simd_prefix_exclusive_sum(v);
        if (lane == 31) totals[sg] = inside + v;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (sg == 0) {
            uint tot = lane < simdgroups_per_threadgroup ? totals[lane] : 0u;
            totals[lane] = simd_prefix_exclusive_sum(tot);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (t < n) offsets[t] = totals[sg] + inside;
    """,
)

scatter_kernel = mx.fast.metal_kernel(
    name="scatter_by_key",
    input_names=["keys", "offsets"],
    output_names=["cursor", "sorted_keys", "order"],
    source="""
        uint i = thread_position_in_grid.x;
        if (i >= uint(keys_shape[0])) return;
        uint k = keys[i];
        uint at = offsets[k] + atomic_fetch_add_explicit(&cursor[k], 1u, memory_order_relaxed);
        atomic_store_explicit(&sorted_keys[at], k, memory_order_relaxed);
        atomic_store_explicit(&order[at], i, memory_order_relaxed);
    """,
    atomic_outputs=True,
)


def counting_sort(keys, n_bins):
    """(counts, offsets, sorted keys, order): three kernels; each output is the next kernel's input on the device."""
    n = keys.shape[0]
    counts = histogram_kernel(inputs=[keys], grid=(n, 1, 1), threadgroup=(256, 1, 1), output_shapes=[(n_bins,)],
                              output_dtypes=[mx.uint32], init_value=0)[0]
    offsets = scan_kernel(inputs=[counts], grid=(n_bins, 1, 1), threadgroup=(n_bins, 1, 1),
                          output_shapes=[(n_bins,)], output_dtypes=[mx.uint32])[0]
    _, sorted_keys, order = scatter_kernel(inputs=[keys, offsets], grid=(n, 1, 1), threadgroup=(256, 1, 1),
                                           output_shapes=[(n_bins,), (n,), (n,)],
                                           output_dtypes=[mx.uint32, mx.uint32, mx.uint32], init_value=0)
    return counts, offsets, sorted_keys, order


# ---- bfloat: y = a * x + b, bfloat16 arrays, float arithmetic (a and b: 0-d float32 inputs) ----
axpb_bf16_kernel = mx.fast.metal_kernel(
    name="axpb_bf16",
    input_names=["x", "a", "b"],
    output_names=["y"],
    source="""
        uint i = thread_position_in_grid.x;
        y[i] = bfloat16_t(a * float(x[i]) + b);
    """,
)


def axpb_bf16(x, a, b):
    return axpb_bf16_kernel(inputs=[x, mx.array(a, mx.float32), mx.array(b, mx.float32)], grid=(x.size, 1, 1),
                            threadgroup=(64, 1, 1), output_shapes=[x.shape], output_dtypes=[mx.bfloat16])[0]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = mx.array(rng.standard_normal((4, 300)).astype(np.float32))
    y = softmax(x)
    print("softmax rows sum to", np.asarray(y).sum(axis=1))
    keys = mx.array(rng.integers(0, 64, 5000).astype(np.uint32))
    counts, offsets, sorted_keys, order = counting_sort(keys, 64)
    print("sorted:", bool(np.all(np.diff(np.asarray(sorted_keys).astype(np.int64)) >= 0)))
