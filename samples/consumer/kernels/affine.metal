// affine.metal: y = leaky(scale * x + bias), one thread per element (dispatchThreads over n).
#include <metal_stdlib>
#include <common.h>
using namespace metal;

kernel void affine(device const float *x [[buffer(0)]],
                   device float *y [[buffer(1)]],
                   constant float &scale [[buffer(2)]],
                   constant float &bias [[buffer(3)]],
                   uint i [[thread_position_in_grid]])
{
    y[i] = leaky(scale * x[i] + bias);
}
