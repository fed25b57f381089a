#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8

// Inclusive or exclusive prefix sum of a large uint array in three kernels:
//   scan_blocks       each threadgroup scans its block (simd_prefix_*_sum inside SIMD-groups, then the
//                     SIMD-groups' totals) and writes the block's total;
//   scan_block_sums   one threadgroup scans the block totals (exclusive), chunk by chunk with a carry;
//   scan_add_offsets  adds each block's offset to its elements.
// Launch scan_blocks and scan_add_offsets with dispatchThreads over the n elements (the last threadgroup may be
// partial), scan_block_sums with one threadgroup.

kernel void scan_blocks(device const uint* in [[buffer(0)]],
                        device uint* out [[buffer(1)]],
                        device uint* block_sums [[buffer(2)]],
                        constant uint& n [[buffer(3)]],
                        constant uint& exclusive [[buffer(4)]],
                        uint gid [[thread_position_in_grid]],
                        uint block [[threadgroup_position_in_grid]],
                        uint lane [[thread_index_in_simdgroup]],
                        uint simd_group [[simdgroup_index_in_threadgroup]],
                        uint simd_groups [[simdgroups_per_threadgroup]])
{
    threadgroup uint group_offsets[32];
    uint v = gid < n ? in[gid] : 0u;
    uint prefix;
    if (exclusive != 0)
        prefix = simd_prefix_exclusive_sum(v);
    else
        prefix = simd_prefix_inclusive_sum(v);
    uint total = simd_sum(v);
    if (lane == 0)
        group_offsets[simd_group] = total;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (simd_group == 0) {
        uint t = lane < simd_groups ? group_offsets[lane] : 0u;
        uint before = simd_prefix_exclusive_sum(t);
        uint block_total = simd_sum(t);
        if (lane < simd_groups)
            group_offsets[lane] = before;
        if (lane == 0)
            block_sums[block] = block_total;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (gid < n)
        out[gid] = prefix + group_offsets[simd_group];
}

kernel void scan_block_sums(device const uint* sums [[buffer(0)]],
                            device uint* offsets [[buffer(1)]],
                            constant uint& count [[buffer(2)]],
                            uint tid [[thread_index_in_threadgroup]],
                            uint threads [[threads_per_threadgroup]],
                            uint lane [[thread_index_in_simdgroup]],
                            uint simd_group [[simdgroup_index_in_threadgroup]],
                            uint simd_groups [[simdgroups_per_threadgroup]])
{
    threadgroup uint group_totals[32];
    threadgroup uint carry;
    if (tid == 0)
        carry = 0;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint base = 0; base < count; base += threads) {
        uint i = base + tid;
        uint v = i < count ? sums[i] : 0u;
        uint prefix = simd_prefix_exclusive_sum(v);
        uint total = simd_sum(v);
        if (lane == 0)
            group_totals[simd_group] = total;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        uint before = 0, chunk = 0;
        for (uint k = 0; k < simd_groups; k++) {
            chunk += group_totals[k];
            if (k < simd_group)
                before += group_totals[k];
        }
        uint c = carry;
        if (i < count)
            offsets[i] = c + before + prefix;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (tid == 0)
            carry = c + chunk;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

kernel void scan_add_offsets(device uint* data [[buffer(0)]],
                             device const uint* offsets [[buffer(1)]],
                             constant uint& n [[buffer(2)]],
                             uint gid [[thread_position_in_grid]],
                             uint block [[threadgroup_position_in_grid]])
{
    if (gid < n)
        data[gid] += offsets[block];
}
