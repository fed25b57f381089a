#include <metal_stdlib>
using namespace metal;

// Sets every element of out to one scalar passed by the host.
kernel void fill(device float* out [[buffer(0)]],
                 constant float& value [[buffer(1)]],
                 uint i [[thread_position_in_grid]]) {
    out[i] = value;
}
