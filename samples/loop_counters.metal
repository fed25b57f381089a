#include <metal_stdlib>
using namespace metal;

// Loop counters of 8- and 16-bit types, as ggml writes them (`for (short i = 0; i < 8; i += 2)`). Where the values
// provably fit (a constant start, a constant `<`/`<=` bound, a constant positive step, no other write) the GLSL
// declares the counter int, so that Vulkan compilers unroll the loop; elsewhere it keeps the type and its wrapping.

// out[t] = sum over i = 0, 2, 4, 6 of x[8t + i] * 2 + x[8t + i + 1]: a private array indexed by a short counter
kernel void short_step(device const float* x [[buffer(0)]],
                       device float* out [[buffer(1)]],
                       uint t [[thread_position_in_grid]]) {
    float v[8];
    for (short i = 0; i < 8; i++)
        v[i] = x[8 * t + i];
    float s = 0;
    for (short i = 0; i < 8; i += 2)
        s += v[i] * 2 + v[i + 1];
    out[t] = s;
}

// out[t] = sum of x[0..254] + t: a uchar counter up to the top of its range (i < 255: widened)
kernel void uchar_top(device const float* x [[buffer(0)]],
                      device float* out [[buffer(1)]],
                      uint t [[thread_position_in_grid]]) {
    float s = t;
    for (uchar i = 0; i < 255; i++)
        s += x[i];
    out[t] = s;
}

// out[t] = x[250] + ... + x[255] + x[0] + ... + x[4]: a uchar counter that wraps (`!=`: kept uchar)
kernel void uchar_wraps(device const float* x [[buffer(0)]],
                        device float* out [[buffer(1)]],
                        uint t [[thread_position_in_grid]]) {
    float s = t;
    for (uchar i = 250; i != 5; i++)
        s += x[i];
    out[t] = s;
}

// a short counter written in the body (kept short) and a ushort counter ending at 65534 (<= bound: widened)
kernel void counters_kept(device const float* x [[buffer(0)]],
                          device float* out [[buffer(1)]],
                          uint t [[thread_position_in_grid]]) {
    float s = 0;
    for (short i = 0; i < 16; i++) {
        s += x[i];
        if (x[i] < 0)
            i += 1;               // skips the next element
    }
    for (ushort j = 65530; j <= 65533; j++)
        s += float(j - 65530) * x[t % 8];
    out[t] = s;
}
