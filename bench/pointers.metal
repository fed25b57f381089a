#include <metal_stdlib>
using namespace metal;

// Benchmark kernels for bench/pointers.py: the pointer-walking kernels of samples/pointers.metal written with
// plain indices, and a float4 loop through pointers, through indices and through a pointer whose buffer is
// chosen at run time (a buffer reference in the GLSL).

// samples/pointers.metal's q4_matvec with indices into the byte buffer instead of walked pointers.
kernel void q4_matvec_index(device const uchar* w [[buffer(0)]],
                            device const float* x [[buffer(1)]],
                            device float* y [[buffer(2)]],
                            constant uint& nblocks [[buffer(3)]],
                            uint row [[thread_position_in_grid]]) {
    float acc = 0.0f;
    for (uint b = 0; b < nblocks; b++) {
        uint base = (row * nblocks + b) * 18;
        float d = float(as_type<half>(ushort(w[base] | (w[base + 1] << 8))));
        float s = 0.0f;
        for (uint j = 0; j < 16; j++) {
            uchar q = w[base + 2 + j];
            s += float(int(q & 0x0F) - 8) * x[b * 32 + j] + float(int(q >> 4) - 8) * x[b * 32 + j + 16];
        }
        acc += d * s;
    }
    y[row] = acc;
}

// dst row += src row, four floats at a time, through float4 pointers walked along the row.
kernel void add4_pointer(device float* dst [[buffer(0)]],
                         device const float* src [[buffer(1)]],
                         device const float* unused [[buffer(2)]],
                         constant uint& cols [[buffer(3)]],
                         uint row [[thread_position_in_grid]]) {
    device float4* d = (device float4*)(dst + row * cols);
    device const float4* s = (device const float4*)(src + row * cols);
    device const float4* end = s + cols / 4;
    while (s < end)
        *d++ += *s++;
}

// The same with indices into float4 views.
kernel void add4_index(device float4* dst [[buffer(0)]],
                       device const float4* src [[buffer(1)]],
                       device const float4* unused [[buffer(2)]],
                       constant uint& cols [[buffer(3)]],
                       uint row [[thread_position_in_grid]]) {
    uint base = row * (cols / 4);
    for (uint i = 0; i < cols / 4; i++)
        dst[base + i] += src[base + i];
}

// The same through a source pointer chosen at run time between two buffers: buffer references.
kernel void add4_address(device float* dst [[buffer(0)]],
                         device const float* src [[buffer(1)]],
                         device const float* other [[buffer(2)]],
                         constant uint& cols [[buffer(3)]],
                         uint row [[thread_position_in_grid]]) {
    device float4* d = (device float4*)(dst + row * cols);
    device const float* from = (row & 0x40000000u) != 0u ? other : src;   // src for every real row
    device const float4* s = (device const float4*)(from + row * cols);
    device const float4* end = s + cols / 4;
    while (s < end)
        *d++ += *s++;
}
