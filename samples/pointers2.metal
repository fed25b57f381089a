#include <metal_stdlib>
using namespace metal;

// Pointers whose buffer is chosen at run time (buffer references in the GLSL), and the other pointer forms
// added after samples/pointers.metal.

float sum4(device const float* p) {
    return p[0] + p[1] + p[2] + p[3];
}

// A pointer reassigned in a branch, a ternary between two buffers, a helper called with either buffer from
// one call site in a loop.
kernel void runtime_roots(device const float* x [[buffer(0)]],
                          device const float* w [[buffer(1)]],
                          device float* y [[buffer(2)]],
                          constant uint& split [[buffer(3)]],
                          uint i [[thread_position_in_grid]]) {
    device const float* p = x;
    if (i >= split)
        p = w + 1;
    device const float* q = (i & 1u) != 0u ? x : w;
    float acc = 0.0f;
    for (uint k = 0; k < 3; k++) {
        device const float* src = (k & 1u) == 0u ? x : w;
        acc += sum4(src + i + k);
    }
    y[i] = p[i] + 2.0f * q[i] + acc;
}

void bump(device float* p, float v) {
    *p += v;
}

// Stores through a pointer into one of three buffers, through a float4 view of it and through a helper.
kernel void runtime_store(device float* a [[buffer(0)]],
                          device float* b [[buffer(1)]],
                          device float* c [[buffer(2)]],
                          device const float4* src [[buffer(3)]],
                          uint i [[thread_position_in_grid]]) {
    uint which = i % 3u;
    device float* out = which == 0u ? a : which == 1u ? b : c;
    device float4* o4 = (device float4*)out + i;
    *o4 = *o4 * 2.0f + src[i];
    bump(out + 4 * i + 3, float(which));
    out += 4 * i;
    out[0] -= 1.0f;
}
