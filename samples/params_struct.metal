#include <metal_stdlib>
using namespace metal;

// Host-side layout (Metal/C rules): 48 bytes, 16-byte aligned.
struct Params {
    float scale;        // offset 0
    float bias;         // offset 4
    float2 limits;      // offset 8: clamp bounds (lo, hi)
    uint count;         // offset 16: number of valid elements
    int shift;          // offset 20: read in[(i + shift) mod count]
    float4 tint;        // offset 32: per-channel multiplier of the result
};

// Scales, offsets and clamps one value with the parameters of the launch.
static float scale_bias_clamp(float x, constant Params& p) {
    float y = x * p.scale + p.bias;
    return clamp(y, p.limits.x, p.limits.y);
}

// out[i] = tint * clamp(in[(i + shift) mod count] * scale + bias, lo, hi)
kernel void params_struct(device const float* in [[buffer(0)]],
                          device float4* out [[buffer(1)]],
                          constant Params& p [[buffer(2)]],
                          uint i [[thread_position_in_grid]]) {
    if (i >= p.count) {
        return;
    }
    int n = int(p.count);
    int src = (int(i) + p.shift % n + n) % n;
    float v = scale_bias_clamp(in[src], p);
    out[i] = p.tint * v;
}
