// copy.metal: y = x four floats a thread, the device's copy bandwidth through mtlrun (bench/real_kernels.py).
#include <metal_stdlib>
using namespace metal;

kernel void copy_float4(device const float4 *x [[buffer(0)]],
                        device float4 *y [[buffer(1)]],
                        uint i [[thread_position_in_grid]])
{
    y[i] = x[i];
}
