#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8

// One pass of a radix sort of uint keys on the 4-bit digit at `shift`, in three kernels:
//   radix_histogram  per threadgroup, how many keys have each digit (counts[digit * blocks + block]);
//   radix_prefix     exclusive prefix sum of those counts, in one threadgroup (digit-major order, so that
//                    offsets[digit * blocks + block] is where that block's keys of that digit go);
//   radix_scatter    each key to its offset plus its rank among the keys of its block with the same digit
//                    (stable: ballots of the SIMD-group, then the SIMD-groups before it).
// Launch radix_histogram and radix_scatter with dispatchThreads over the keys, radix_prefix with one threadgroup
// and threadgroup memory for one uint per SIMD-group.

kernel void radix_histogram(device const uint* keys [[buffer(0)]],
                            device uint* counts [[buffer(1)]],
                            constant uint& n [[buffer(2)]],
                            constant uint& shift [[buffer(3)]],
                            constant uint& blocks [[buffer(4)]],
                            uint gid [[thread_position_in_grid]],
                            uint block [[threadgroup_position_in_grid]],
                            uint tid [[thread_index_in_threadgroup]],
                            uint lane [[thread_index_in_simdgroup]],
                            uint simd_group [[simdgroup_index_in_threadgroup]],
                            uint simd_groups [[simdgroups_per_threadgroup]])
{
    threadgroup uint group_counts[16][32];
    uint digit = gid < n ? (keys[gid] >> shift) & 15u : 16u;
    for (uint d = 0; d < 16; d++) {
        uint c = simd_sum(digit == d ? 1u : 0u);
        if (lane == 0)
            group_counts[d][simd_group] = c;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid < 16) {
        uint total = 0;
        for (uint s = 0; s < simd_groups; s++)
            total += group_counts[tid][s];
        counts[tid * blocks + block] = total;
    }
}

kernel void radix_prefix(device const uint* counts [[buffer(0)]],
                         device uint* offsets [[buffer(1)]],
                         constant uint& count [[buffer(2)]],
                         threadgroup uint* totals [[threadgroup(0)]],
                         uint tid [[thread_index_in_threadgroup]],
                         uint threads [[threads_per_threadgroup]],
                         uint lane [[thread_index_in_simdgroup]],
                         uint simd_group [[simdgroup_index_in_threadgroup]],
                         uint simd_groups [[simdgroups_per_threadgroup]])
{
    uint carry = 0;
    for (uint base = 0; base < count; base += threads) {
        uint i = base + tid;
        uint v = i < count ? counts[i] : 0u;
        uint prefix = simd_prefix_exclusive_sum(v);
        uint total = simd_sum(v);
        if (lane == 0)
            totals[simd_group] = total;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        uint before = 0, chunk = 0;
        for (uint k = 0; k < simd_groups; k++) {
            uint t = totals[k];
            chunk += t;
            if (k < simd_group)
                before += t;
        }
        if (i < count)
            offsets[i] = carry + before + prefix;
        carry += chunk;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

kernel void radix_scatter(device const uint* keys [[buffer(0)]],
                          device const uint* offsets [[buffer(1)]],
                          device uint* sorted [[buffer(2)]],
                          constant uint& n [[buffer(3)]],
                          constant uint& shift [[buffer(4)]],
                          constant uint& blocks [[buffer(5)]],
                          uint gid [[thread_position_in_grid]],
                          uint block [[threadgroup_position_in_grid]],
                          uint lane [[thread_index_in_simdgroup]],
                          uint simd_group [[simdgroup_index_in_threadgroup]])
{
    threadgroup uint group_counts[16][32];
    uint key = gid < n ? keys[gid] : 0u;
    uint digit = gid < n ? (key >> shift) & 15u : 16u;
    uint rank = 0;
    for (uint d = 0; d < 16; d++) {
        uint same = uint(simd_ballot(digit == d));
        if (digit == d)
            rank = popcount(same & ((1u << lane) - 1u));
        if (lane == 0)
            group_counts[d][simd_group] = popcount(same);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (gid < n) {
        for (uint s = 0; s < simd_group; s++)
            rank += group_counts[digit][s];
        sorted[offsets[digit * blocks + block] + rank] = key;
    }
}
