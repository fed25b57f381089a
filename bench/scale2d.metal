// scale2d.metal: y = a * x over a 2-D grid, one thread per element (bench/runtime_bench.py: the end-to-end run of an
// 8192 x 4096 float32 input and output through mtlrun).
#include <metal_stdlib>
using namespace metal;

kernel void scale2d(device const float *x [[buffer(0)]],
                    device float *y [[buffer(1)]],
                    constant float &a [[buffer(2)]],
                    uint2 gid [[thread_position_in_grid]],
                    uint2 size [[threads_per_grid]])
{
    uint i = gid.y * size.x + gid.x;
    y[i] = a * x[i];
}
