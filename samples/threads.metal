#include <metal_stdlib>
using namespace metal;

// Writes every thread's position attributes, so they can be checked against
// Metal's definitions: 19 uints per thread, at its linear index in the grid.
kernel void thread_ids_3d(device uint* out [[buffer(0)]],
                          uint3 gid [[thread_position_in_grid]],
                          uint3 lid [[thread_position_in_threadgroup]],
                          uint3 group [[threadgroup_position_in_grid]],
                          uint3 grid_size [[threads_per_grid]],
                          uint3 group_size [[threads_per_threadgroup]],
                          uint3 groups [[threadgroups_per_grid]],
                          uint flat_lid [[thread_index_in_threadgroup]]) {
    uint linear = (gid.z * grid_size.y + gid.y) * grid_size.x + gid.x;
    uint o = 19 * linear;
    out[o + 0] = gid.x;
    out[o + 1] = gid.y;
    out[o + 2] = gid.z;
    out[o + 3] = lid.x;
    out[o + 4] = lid.y;
    out[o + 5] = lid.z;
    out[o + 6] = group.x;
    out[o + 7] = group.y;
    out[o + 8] = group.z;
    out[o + 9] = grid_size.x;
    out[o + 10] = grid_size.y;
    out[o + 11] = grid_size.z;
    out[o + 12] = group_size.x;
    out[o + 13] = group_size.y;
    out[o + 14] = group_size.z;
    out[o + 15] = groups.x;
    out[o + 16] = groups.y;
    out[o + 17] = groups.z;
    out[o + 18] = flat_lid;
}

// The same attributes declared as 2-D vectors: 13 uints per thread.
kernel void thread_ids_2d(device uint* out [[buffer(0)]],
                          uint2 gid [[thread_position_in_grid]],
                          uint2 lid [[thread_position_in_threadgroup]],
                          uint2 group [[threadgroup_position_in_grid]],
                          uint2 grid_size [[threads_per_grid]],
                          uint2 group_size [[threads_per_threadgroup]],
                          uint2 groups [[threadgroups_per_grid]],
                          uint flat_lid [[thread_index_in_threadgroup]]) {
    uint o = 13 * (gid.y * grid_size.x + gid.x);
    out[o + 0] = gid.x;
    out[o + 1] = gid.y;
    out[o + 2] = lid.x;
    out[o + 3] = lid.y;
    out[o + 4] = group.x;
    out[o + 5] = group.y;
    out[o + 6] = grid_size.x;
    out[o + 7] = grid_size.y;
    out[o + 8] = group_size.x;
    out[o + 9] = group_size.y;
    out[o + 10] = groups.x;
    out[o + 11] = groups.y;
    out[o + 12] = flat_lid;
}
