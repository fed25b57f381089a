// chain.metal: three steps of a small pipeline, run by consumer_cxx in one submission.
#include <metal_stdlib>
using namespace metal;

// y = a * x
kernel void scale(device const float *x [[buffer(0)]],
                  device float *y [[buffer(1)]],
                  constant float &a [[buffer(2)]],
                  uint i [[thread_position_in_grid]])
{
    y[i] = a * x[i];
}

// y += b, in place
kernel void shift(device float *y [[buffer(0)]],
                  constant float &b [[buffer(1)]],
                  uint i [[thread_position_in_grid]])
{
    y[i] += b;
}

// sums[g] = the sum of threadgroup g's elements of y (a tree in threadgroup memory the host sizes)
kernel void block_sum(device const float *y [[buffer(0)]],
                      device float *sums [[buffer(1)]],
                      threadgroup float *part [[threadgroup(0)]],
                      uint i [[thread_position_in_grid]],
                      uint lid [[thread_position_in_threadgroup]],
                      uint group [[threadgroup_position_in_grid]],
                      uint threads [[threads_per_threadgroup]])
{
    part[lid] = y[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = threads / 2; s > 0; s /= 2) {
        if (lid < s)
            part[lid] += part[lid + s];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (lid == 0)
        sums[group] = part[0];
}
