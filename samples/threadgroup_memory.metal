#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8

// Threadgroup memory in its forms: a padded 2-D tile, an array of structs, vectors in host-sized memory
// ([[threadgroup(0)]]), per-SIMD-group slots behind simdgroup_barrier, and barriers with each mem_flags set.

struct Best {
    float value;
    uint index;
};

// Transpose through a 16x17 tile (the padding column avoids bank conflicts on GPUs that have them).
// Launch: dispatchThreadgroups covering the matrix with 16x16 threadgroups.
kernel void tile_transpose(device const float* in [[buffer(0)]],
                           device float* out [[buffer(1)]],
                           constant uint& rows [[buffer(2)]],
                           constant uint& cols [[buffer(3)]],
                           uint2 group [[threadgroup_position_in_grid]],
                           uint2 local [[thread_position_in_threadgroup]])
{
    threadgroup float tile[16][17];
    uint x = group.x * 16 + local.x;
    uint y = group.y * 16 + local.y;
    tile[local.y][local.x] = x < cols && y < rows ? in[y * cols + x] : 0.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint tx = group.y * 16 + local.x;
    uint ty = group.x * 16 + local.y;
    if (tx < rows && ty < cols)
        out[ty * rows + tx] = tile[local.x][local.y];
}

// The largest value of each threadgroup's block and its index, by a tree over an array of structs.
kernel void block_argmax(device const float* x [[buffer(0)]],
                         device Best* best [[buffer(1)]],
                         constant uint& n [[buffer(2)]],
                         uint gid [[thread_position_in_grid]],
                         uint tid [[thread_index_in_threadgroup]],
                         uint block [[threadgroup_position_in_grid]],
                         uint threads [[threads_per_threadgroup]])
{
    threadgroup Best candidates[256];
    threadgroup_barrier(mem_flags::mem_none);
    Best mine;
    mine.value = gid < n ? x[gid] : -INFINITY;
    mine.index = gid;
    candidates[tid] = mine;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint stride = 1; stride < threads; stride *= 2) {
        if (tid % (2 * stride) == 0 && tid + stride < threads) {
            Best other = candidates[tid + stride];
            if (other.value > candidates[tid].value)
                candidates[tid] = other;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (tid == 0)
        best[block] = candidates[0];
}

// Reverses each threadgroup's block of float4 through host-sized threadgroup memory; the last, partial
// threadgroup reverses only its own threads. The device barrier flag orders the buffer writes as well.
kernel void block_reverse(device const float4* in [[buffer(0)]],
                          device float4* out [[buffer(1)]],
                          threadgroup float4* scratch [[threadgroup(0)]],
                          uint gid [[thread_position_in_grid]],
                          uint tid [[thread_index_in_threadgroup]],
                          uint threads [[threads_per_threadgroup]])
{
    scratch[tid] = in[gid];
    threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
    out[gid] = scratch[threads - 1 - tid] * 2.0f;
}

// Swaps neighbouring lanes' int2 values through per-SIMD-group slots; simdgroup_barrier is enough.
kernel void simdgroup_exchange(device const int2* in [[buffer(0)]],
                               device int2* out [[buffer(1)]],
                               uint gid [[thread_position_in_grid]],
                               uint lane [[thread_index_in_simdgroup]],
                               uint simd_group [[simdgroup_index_in_threadgroup]])
{
    threadgroup int2 slots[8][32];
    slots[simd_group][lane] = in[gid];
    simdgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = slots[simd_group][lane ^ 1u];
}
