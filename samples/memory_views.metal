#include <metal_stdlib>
using namespace metal;

// Thread and threadgroup memory read and written through pointers of other types, as ggml's kernels do:
// a uint32_t local read byte by byte (`(thread const uint8_t*)&aux32`), a ushort array read as bytes (sc16), a
// uint32_t written as two ushorts and read as int8 (scales32), a constant table read as bytes (iq1s_grid_gpu),
// helpers writing through `thread float*` into the caller's scalars (rope_yarn), and `threadgroup char* shmem`
// used as float only, as float, int, half4, half and float4 at byte offsets, and as ulong and uchar.

constant uint32_t grid_tab[4] = {0x04030201u, 0x08070605u, 0x0c0b0a09u, 0x100f0e0du};

static void sincos_out(float t, thread float* c, thread float* s) {
    *c = cos(t);
    *s = sin(t);
    if (t < 0.0f) {
        *s *= -1.0f;
    }
}

kernel void thread_bytes(device const uint* x [[buffer(0)]],
                         device float* y [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    uint32_t aux32 = x[i];
    thread const uint8_t* q8 = (thread const uint8_t*)&aux32;
    uint16_t sc16[2];
    sc16[0] = uint16_t(x[i] & 0xffff);
    sc16[1] = uint16_t(x[i] >> 16);
    thread const uint8_t* sc8 = (thread const uint8_t*)sc16;
    uint32_t scales32 = 0;
    thread uint16_t* scales16 = (thread uint16_t*)&scales32;
    scales16[1] = uint16_t(i);
    scales16[0] = 7;
    thread const int8_t* sc = (thread const int8_t*)&scales32;
    constant uint8_t* g = (constant uint8_t*)(grid_tab + (i % 4));
    float c, s;
    sincos_out((float(i) - 8.0f) * 0.1f, &c, &s);
    y[i] = q8[0] + 2 * q8[3] + sc8[1] + sc8[2] * 3 + sc[0] + sc[2] + g[1] + c + s;
}

// Threadgroup memory given by the host as bytes, used as float only: an array of float.
kernel void tg_as_float(device const float* x [[buffer(0)]],
                        device float* y [[buffer(1)]],
                        threadgroup char* shmem [[threadgroup(0)]],
                        uint lid [[thread_position_in_threadgroup]],
                        uint i [[thread_position_in_grid]]) {
    threadgroup float* f = (threadgroup float*)shmem;
    f[lid] = x[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    y[i] = f[31 - lid];
}

// The same bytes as float, int, half4 (also read as half) and float4 (read, scaled in place, read again):
// 4-byte words, since the narrowest alignment written is 4.
kernel void tg_mixed(device const float* x [[buffer(0)]],
                     device float* y [[buffer(1)]],
                     threadgroup char* shmem [[threadgroup(0)]],
                     uint lid [[thread_position_in_threadgroup]],
                     uint i [[thread_position_in_grid]]) {
    threadgroup float* fv = (threadgroup float*)shmem;
    threadgroup int* iv = (threadgroup int*)(shmem + 32 * 4);
    threadgroup half4* h4 = (threadgroup half4*)(shmem + 64 * 4);
    threadgroup half* h = (threadgroup half*)(shmem + 64 * 4);
    threadgroup float4* f4 = (threadgroup float4*)(shmem + 128 * 4);
    fv[lid] = x[i];
    iv[lid] = int(lid) * 3;
    h4[lid] = half4(x[i], 1.0h, 2.0h, half(lid));
    f4[lid] = float4(x[i]);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    f4[lid] *= 2.0f;
    y[i] = fv[31 - lid] + float(iv[(lid + 1) % 32]) + float(h[4 * lid + 3]) + float(h[4 * ((lid + 5) % 32)]) + f4[lid].y;
}

// ulong values and a uchar table in one array, bytes read out of the ulongs: 1-byte words.
kernel void tg_bytes(device const ulong* x [[buffer(0)]],
                     device uint* y [[buffer(1)]],
                     uint lid [[thread_position_in_threadgroup]],
                     uint i [[thread_position_in_grid]]) {
    threadgroup char shmem[32 * 8 + 32];
    threadgroup uint64_t* vals = (threadgroup uint64_t*)shmem;
    threadgroup uint8_t* signs = (threadgroup uint8_t*)(vals + 32);
    vals[lid] = x[i];
    signs[lid] = uint8_t(lid * 7);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const threadgroup uint8_t* grid = (const threadgroup uint8_t*)(vals + (lid + 3) % 32);
    y[i] = grid[0] + grid[5] * 256u + signs[31 - lid] * 65536u;
}

// A half array written one half at a time, read as uint (two halves' bits) and as half2: 2-byte words.
kernel void tg_halves(device const float* x [[buffer(0)]],
                      device uint* bits [[buffer(1)]],
                      device float* y [[buffer(2)]],
                      uint lid [[thread_position_in_threadgroup]],
                      uint i [[thread_position_in_grid]]) {
    threadgroup half hs[64];
    hs[2 * lid] = half(x[i]);
    hs[2 * lid + 1] = -half(x[i]) * 0.5h;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    threadgroup const uint* w = (threadgroup const uint*)hs;
    threadgroup const half2* h2 = (threadgroup const half2*)hs;
    bits[i] = w[(lid + 1) % 32];
    y[i] = float(h2[(lid + 2) % 32].y) + float(hs[63 - lid]);
}

// Threadgroup bytes as ggml's mul_mm tiles use them: half2x4 matrices written whole and read whole (column by
// column), a half of each written alone (2-byte words), and the same bytes read as uint.
kernel void tg_matrix(device const half* x [[buffer(0)]],
                      device float* y [[buffer(1)]],
                      device uint* bits [[buffer(2)]],
                      uint lid [[thread_position_in_threadgroup]],
                      uint i [[thread_position_in_grid]]) {
    threadgroup char tile[32 * 16];
    threadgroup half2x4* m = (threadgroup half2x4*)tile;
    threadgroup half* h = (threadgroup half*)tile;
    m[lid] = half2x4(half4(x[8 * i + 0], x[8 * i + 1], x[8 * i + 2], x[8 * i + 3]),
                     half4(x[8 * i + 4], x[8 * i + 5], x[8 * i + 6], x[8 * i + 7]));
    threadgroup_barrier(mem_flags::mem_threadgroup);
    h[8 * lid + 5] = -h[8 * lid + 5];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    half2x4 a = m[31 - lid];
    threadgroup const uint* w = (threadgroup const uint*)tile;
    y[i] = float(a[0][1]) + 4.0f * float(a[1][1]);
    bits[i] = w[4 * ((lid + 3) % 32) + 2];
}
