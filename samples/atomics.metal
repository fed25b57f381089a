#include <metal_stdlib>
using namespace metal;

// Histogram of bytes: each threadgroup counts into threadgroup atomics, then adds its counts to the
// device histogram. `bins` must be 256 and the threadgroup 256 threads (one bin per thread).
kernel void histogram256(device const uchar* data [[buffer(0)]],
                         device atomic_uint* hist [[buffer(1)]],
                         constant uint& n [[buffer(2)]],
                         uint gid [[thread_position_in_grid]],
                         uint lid [[thread_index_in_threadgroup]],
                         uint grid_threads [[threads_per_grid]]) {
    threadgroup atomic_uint local_hist[256];
    atomic_store_explicit(&local_hist[lid], 0u, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint i = gid; i < n; i += grid_threads)
        atomic_fetch_add_explicit(&local_hist[data[i]], 1u, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint c = atomic_load_explicit(&local_hist[lid], memory_order_relaxed);
    if (c != 0u)
        atomic_fetch_add_explicit(hist + lid, c, memory_order_relaxed);
}

// Stream compaction: the positive values, in an order the atomic counter decides; the host sorts them.
kernel void compact_positive(device const float* x [[buffer(0)]],
                             device float* out [[buffer(1)]],
                             device atomic_int* count [[buffer(2)]],
                             uint i [[thread_position_in_grid]]) {
    float v = x[i];
    if (v > 0.0f) {
        int slot = atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
        out[slot] = v;
    }
}

// Every integer operation on one device word per group of threads, and min/max/and/or/xor/sub/exchange.
kernel void atomic_ops(device atomic_int* acc [[buffer(0)]],
                       device atomic_uint* bits [[buffer(1)]],
                       device const int* v [[buffer(2)]],
                       device int* old_seen [[buffer(3)]],
                       uint i [[thread_position_in_grid]]) {
    atomic_fetch_min_explicit(&acc[0], v[i], memory_order_relaxed);
    atomic_fetch_max_explicit(&acc[1], v[i], memory_order_relaxed);
    atomic_fetch_sub_explicit(&acc[2], v[i], memory_order_relaxed);
    atomic_fetch_or_explicit(&bits[0], 1u << (i % 32u), memory_order_relaxed);
    atomic_fetch_and_explicit(&bits[1], ~(1u << (i % 32u)), memory_order_relaxed);
    atomic_fetch_xor_explicit(&bits[2], uint(v[i]), memory_order_relaxed);
    old_seen[i] = atomic_exchange_explicit(&acc[3 + i], 2 * int(i), memory_order_relaxed);
}

// Float sums through atomic<float> in threadgroup and device memory, and a maximum built from a
// compare-exchange loop on the float's bits (as kernels do for what has no atomic function).
kernel void float_atomics(device const float* x [[buffer(0)]],
                          device atomic<float>* sum [[buffer(1)]],
                          device atomic_uint* max_bits [[buffer(2)]],
                          uint i [[thread_position_in_grid]],
                          uint lid [[thread_index_in_threadgroup]]) {
    threadgroup atomic<float> part;
    if (lid == 0u)
        atomic_store_explicit(&part, 0.0f, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    atomic_fetch_add_explicit(&part, x[i], memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0u)
        atomic_fetch_add_explicit(sum, atomic_load_explicit(&part, memory_order_relaxed), memory_order_relaxed);
    uint expected = atomic_load_explicit(max_bits, memory_order_relaxed);
    while (as_type<float>(expected) < x[i]) {
        if (atomic_compare_exchange_weak_explicit(max_bits, &expected, as_type<uint>(x[i]),
                                                  memory_order_relaxed, memory_order_relaxed))
            break;
    }
}

// half and bfloat atomics as kernels write them: a compare-exchange loop on the 32-bit word that holds the value.
void atomic_add_half(device atomic_uint* word, uint slot, half v) {
    uint expected = atomic_load_explicit(word, memory_order_relaxed);
    while (true) {
        half2 h = as_type<half2>(expected);
        h[slot] += v;
        if (atomic_compare_exchange_weak_explicit(word, &expected, as_type<uint>(h),
                                                  memory_order_relaxed, memory_order_relaxed))
            break;
    }
}

void atomic_add_bfloat(device atomic_uint* word, uint slot, float v) {
    uint expected = atomic_load_explicit(word, memory_order_relaxed);
    while (true) {
        ushort2 u = as_type<ushort2>(expected);
        bfloat b = as_type<bfloat>(u[slot]);
        bfloat sum = float(b) + v;
        u[slot] = as_type<ushort>(sum);
        if (atomic_compare_exchange_weak_explicit(word, &expected, as_type<uint>(u),
                                                  memory_order_relaxed, memory_order_relaxed))
            break;
    }
}

// Thread i adds x[i] to bin i % 8 of a half (and a bfloat) accumulator, two bins per 32-bit word.
kernel void half_bfloat_atomics(device const half* x [[buffer(0)]],
                                device atomic_uint* half_bins [[buffer(1)]],
                                device atomic_uint* bf_bins [[buffer(2)]],
                                uint i [[thread_position_in_grid]]) {
    uint bin = i % 8u;
    atomic_add_half(half_bins + bin / 2u, bin % 2u, x[i]);
    atomic_add_bfloat(&bf_bins[bin / 2u], bin % 2u, float(x[i]));
}
