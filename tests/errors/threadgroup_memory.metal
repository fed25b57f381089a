// Threadgroup memory arrives in a later issue; until then it is an error with a location.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+7:23: error: not supported
#include <metal_stdlib>
using namespace metal;

kernel void reverse_tile(device float* data [[buffer(0)]],
                         uint lid [[thread_position_in_threadgroup]],
                         uint gid [[thread_position_in_grid]]) {
    threadgroup float tile[64];
    tile[lid] = data[gid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    data[gid] = tile[63 - lid];
}
