#include <metal_stdlib>
using namespace metal;

// Float atomic min and max over a buffer that holds negative values, NaNs and signed zeros. The order
// checked: a NaN operand changes nothing, a NaN in memory is replaced, -0.0 is below +0.0.
kernel void float_min_max(device const float* x [[buffer(0)]],
                          device atomic<float>* m [[buffer(1)]],
                          uint i [[thread_position_in_grid]]) {
    atomic_fetch_min_explicit(&m[0], x[i], memory_order_relaxed);
    atomic_fetch_max_explicit(m + 1, x[i], memory_order_relaxed);
    atomic_fetch_min_explicit(&m[2 + i % 2u], x[i], memory_order_relaxed);
}

// What kernels build from compare-exchange on a float: a product (powers of two: exact in any order) and
// the largest magnitude. Slots 2 and 3 check that compare-exchange compares bits, as Metal does: a NaN
// matches the NaN stored, +0.0 does not match -0.0 (and `expected` receives the -0.0 found).
kernel void float_cas(device const float* x [[buffer(0)]],
                      device atomic<float>* acc [[buffer(1)]],
                      device int* flags [[buffer(2)]],
                      device float* seen [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
    float expected = atomic_load_explicit(&acc[0], memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&acc[0], &expected, expected * x[i],
                                                  memory_order_relaxed, memory_order_relaxed)) {
    }
    float big = atomic_load_explicit(acc + 1, memory_order_relaxed);
    while (fabs(x[i]) > big && !atomic_compare_exchange_weak_explicit(acc + 1, &big, fabs(x[i]),
                                                                      memory_order_relaxed, memory_order_relaxed)) {
    }
    atomic_fetch_sub_explicit(&acc[4], fabs(x[i]), memory_order_relaxed);
    if (i == 0u) {
        float nan_found = atomic_load_explicit(&acc[2], memory_order_relaxed);
        flags[0] = atomic_compare_exchange_weak_explicit(&acc[2], &nan_found, 7.0f, memory_order_relaxed, memory_order_relaxed) ? 1 : 0;
        float plus_zero = 0.0f;
        flags[1] = atomic_compare_exchange_weak_explicit(&acc[3], &plus_zero, 5.0f, memory_order_relaxed, memory_order_relaxed) ? 1 : 0;
        seen[0] = plus_zero;
    }
}

// half atomics as PyTorch's c10 helpers write them for 16-bit types: a compare-exchange on the aligned
// 32-bit word that holds the element, reached by casting the half pointer to an atomic_uint pointer.
void atomic_add_half_at(device half* data, uint index, half v) {
    device atomic_uint* word = (device atomic_uint*)(data + (index & ~1u));
    uint shift = (index & 1u) * 16u;
    uint expected = atomic_load_explicit(word, memory_order_relaxed);
    while (true) {
        half old = as_type<half>(ushort(expected >> shift));
        uint sum = uint(as_type<ushort>(half(old + v)));
        uint desired = (expected & ~(0xffffu << shift)) | (sum << shift);
        if (atomic_compare_exchange_weak_explicit(word, &expected, desired, memory_order_relaxed, memory_order_relaxed))
            break;
    }
}

kernel void half_subword_add(device half* bins [[buffer(0)]],
                             device const half* x [[buffer(1)]],
                             uint i [[thread_position_in_grid]]) {
    atomic_add_half_at(bins, i % 7u, x[i]);
}

// 8-bit counters the same way: the byte at index i sits in word i / 4 at bit 8 * (i % 4); sums wrap as uchar does.
void atomic_add_uchar_at(device uchar* data, uint index, uchar v) {
    device atomic_uint* word = (device atomic_uint*)(data + (index & ~3u));
    uint shift = (index & 3u) * 8u;
    uint expected = atomic_load_explicit(word, memory_order_relaxed);
    while (true) {
        uint sum = ((expected >> shift) + uint(v)) & 0xffu;
        uint desired = (expected & ~(0xffu << shift)) | (sum << shift);
        if (atomic_compare_exchange_weak_explicit(word, &expected, desired, memory_order_relaxed, memory_order_relaxed))
            break;
    }
}

kernel void uchar_subword_count(device uchar* counts [[buffer(0)]],
                                device const uchar* x [[buffer(1)]],
                                uint i [[thread_position_in_grid]]) {
    atomic_add_uchar_at(counts, x[i], uchar(1));
}

// Last-threadgroup-done reduction: every threadgroup writes its partial sum, fences, and takes a ticket;
// the threadgroup that takes the last ticket adds the partials (in threadgroup order: an exact result).
// The partials are coherent(device) (MSL 3.2): visible to other threadgroups once fenced.
kernel void last_group_sum(device const float* x [[buffer(0)]],
                           coherent(device) device float* partial [[buffer(1)]],
                           device atomic_uint* done [[buffer(2)]],
                           device float* total [[buffer(3)]],
                           uint gid [[thread_position_in_grid]],
                           uint lid [[thread_index_in_threadgroup]],
                           uint group [[threadgroup_position_in_grid]],
                           uint groups [[threadgroups_per_grid]]) {
    threadgroup float sums[64];
    sums[lid] = x[gid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (lid < s)
            sums[lid] += sums[lid + s];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (lid == 0u) {
        partial[group] = sums[0];
        atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
        uint ticket = atomic_fetch_add_explicit(done, 1u, memory_order_relaxed);
        if (ticket == groups - 1u) {
            atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);
            float t = 0.0f;
            for (uint g = 0u; g < groups; g++)
                t += partial[g];
            total[0] = t;
        }
    }
}

// The same reduction ordered by the counter itself: a fetch_add with memory_order_acq_rel releases the
// partial written before it and, in the last threadgroup, acquires every other threadgroup's partial.
kernel void last_group_sum_acq_rel(device const float* x [[buffer(0)]],
                                   device float* partial [[buffer(1)]],
                                   device atomic_uint* done [[buffer(2)]],
                                   device float* total [[buffer(3)]],
                                   uint gid [[thread_position_in_grid]],
                                   uint lid [[thread_index_in_threadgroup]],
                                   uint group [[threadgroup_position_in_grid]],
                                   uint groups [[threadgroups_per_grid]]) {
    threadgroup float sums[64];
    sums[lid] = x[gid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (lid < s)
            sums[lid] += sums[lid + s];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (lid == 0u) {
        partial[group] = sums[0];
        if (atomic_fetch_add_explicit(done, 1u, memory_order_acq_rel) == groups - 1u) {
            float t = 0.0f;
            for (uint g = 0u; g < groups; g++)
                t += partial[g];
            total[0] = t;
        }
    }
}

// atomic_ulong (Metal 3.1: min and max) and the template spellings atomic<int> / atomic<uint>.
kernel void ulong_min_max(device const ulong* v [[buffer(0)]],
                          device atomic_ulong* m [[buffer(1)]],
                          device atomic<int>* count [[buffer(2)]],
                          device atomic<uint>* bits [[buffer(3)]],
                          uint i [[thread_position_in_grid]]) {
    atomic_min_explicit(&m[0], v[i], memory_order_relaxed);
    atomic_max_explicit(m + 1, v[i], memory_order_relaxed);
    atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
    atomic_fetch_or_explicit(bits, 1u << (i % 32u), memory_order_relaxed);
}

// A threadgroup atomic<float> that min/max use is held as its bits in threadgroup memory; its other
// functions (store, load, add) then work on the bits too. Each threadgroup writes its minimum, maximum
// and the sum of its rounded values (small integers: exact in any order).
kernel void threadgroup_float_min_max(device const float* x [[buffer(0)]],
                                      device float* out [[buffer(1)]],
                                      uint i [[thread_position_in_grid]],
                                      uint lid [[thread_index_in_threadgroup]],
                                      uint group [[threadgroup_position_in_grid]]) {
    threadgroup atomic<float> lo;
    threadgroup atomic<float> hi_sum[2];
    if (lid == 0u) {
        atomic_store_explicit(&lo, INFINITY, memory_order_relaxed);
        atomic_store_explicit(&hi_sum[0], -INFINITY, memory_order_relaxed);
        atomic_store_explicit(&hi_sum[1], 0.0f, memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    atomic_fetch_min_explicit(&lo, x[i], memory_order_relaxed);
    atomic_fetch_max_explicit(hi_sum, x[i], memory_order_relaxed);
    atomic_fetch_add_explicit(hi_sum + 1, rint(x[i]), memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0u) {
        out[3u * group] = atomic_load_explicit(&lo, memory_order_relaxed);
        out[3u * group + 1u] = atomic_load_explicit(&hi_sum[0], memory_order_relaxed);
        out[3u * group + 2u] = atomic_load_explicit(&hi_sum[1], memory_order_relaxed);
    }
}

// MSL 3.2's buffer qualifiers in a kernel without fences: GLSL's volatile / coherent buffers.
kernel void signal_value(volatile coherent(device) device uint* flag [[buffer(0)]],
                         coherent(device) device float* data [[buffer(1)]],
                         constant uint& value [[buffer(2)]],
                         uint i [[thread_position_in_grid]]) {
    data[i] = float(value) + float(i);
    if (i == 0u)
        flag[0] = value;
}

// Memory orders on the atomic functions that take them (C++'s rules) and fences of each scope. One thread's
// compare-exchange succeeds (c[2] holds 0 once); every thread reads 40 and takes a slot below the threadgroup size.
kernel void memory_orders(device atomic_uint* c [[buffer(0)]],
                          device uint* out [[buffer(1)]],
                          uint i [[thread_position_in_grid]],
                          uint lid [[thread_index_in_threadgroup]],
                          uint size [[threads_per_threadgroup]]) {
    threadgroup atomic_int t;
    if (lid == 0u)
        atomic_store_explicit(&t, 0, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    atomic_thread_fence(mem_flags::mem_device | mem_flags::mem_threadgroup, memory_order_release, thread_scope_threadgroup);
    atomic_thread_fence(mem_flags::mem_threadgroup, memory_order_acquire, thread_scope_simdgroup);
    atomic_thread_fence(mem_flags::mem_device, memory_order_acq_rel, thread_scope_thread);
    atomic_store_explicit(&c[0], 3u, memory_order_release);
    uint v = atomic_load_explicit(&c[1], memory_order_acquire);
    int slot = atomic_fetch_add_explicit(&t, 1, memory_order_seq_cst);
    uint expected = 0u;
    if (atomic_compare_exchange_weak_explicit(&c[2], &expected, v, memory_order_acq_rel, memory_order_acquire))
        atomic_fetch_add_explicit(&c[3], 1u, memory_order_acq_rel);
    out[i] = v + (uint(slot) < size ? 0u : 1000u);
}
