#include <metal_stdlib>
using namespace metal;

// More pointers as ggml writes them: arrays of pointers (one per broadcast operand, one per row of threadgroup
// partial sums), nullptr for an operand the host did not give (soft_max binds src0 again in its place and the
// kernel compares the two pointers), a helper given nullptr, a local union read as its other member, and blocks
// read through a pointer whose buffer is chosen at run time (flash attention's K and V move to the padding buffer
// for the last block).

// Sums four operand rows, each found through its own byte offset, into dst; then the rows of a threadgroup
// table, each a pointer into the same threadgroup bytes.
kernel void rows_of_pointers(device const char* src1 [[buffer(0)]],
                             constant ulong* offs [[buffer(1)]],
                             device float* dst [[buffer(2)]],
                             threadgroup char* shmem [[threadgroup(0)]],
                             uint i [[thread_position_in_grid]],
                             uint lid [[thread_position_in_threadgroup]]) {
    device const float* src1_ptr[4];
    for (short j = 0; j < 4; ++j)
        src1_ptr[j] = (device const float*)(src1 + offs[j]);
    threadgroup float* part[2];
    for (short r = 0; r < 2; ++r)
        part[r] = (threadgroup float*)shmem + 32 * r;
    float res = 0.0f;
    for (short j = 0; j < 4; ++j)
        res += float(j + 1) * src1_ptr[j][i];
    part[0][lid] = res;
    part[1][lid] = -2.0f * res;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    dst[i] = part[0][31 - lid] + part[1][lid];
}

float first_or(device const float* p, float fallback) {
    return p ? p[0] : fallback;
}

// soft_max's operands: the mask and the sinks are optional; where the host has none it binds src0 again, and the
// kernel takes nullptr for them. Then a helper given nullptr, and the tests written three ways.
kernel void optional_operands(device const char* src0 [[buffer(0)]],
                              device const char* src1 [[buffer(1)]],
                              device const char* src2 [[buffer(2)]],
                              device float* dst [[buffer(3)]],
                              uint i [[thread_position_in_grid]]) {
    device const float* x = (device const float*)src0;
    device const float* pmask = src1 != src0 ? (device const float*)(src1 + 4 * i) : nullptr;
    device const float* psink = src2 != src0 ? (device const float*)src2 : nullptr;
    float v = x[i] + (pmask ? 2.0f * pmask[0] : 0.0f) + (psink ? psink[i % 4] : -100.0f);
    if (!pmask)
        v += 1000.0f;
    if (psink == nullptr)
        v += 10000.0f;
    dst[i] = v + first_or(psink, 0.5f) + first_or(nullptr, 0.25f);
}

typedef union {
    half f16;
    uint16_t u16;
} scale_t;

// A local union written as bits and read as a half (ggml's iq1m_scale_t).
kernel void local_union(device const ushort* bits [[buffer(0)]],
                        device float* dst [[buffer(1)]],
                        uint i [[thread_position_in_grid]]) {
    scale_t s;
    s.u16 = (bits[i] & 0x83ff) | 0x3c00; // sign and mantissa kept, exponent 15: +-[1, 2)
    dst[i] = s.f16;
}

typedef struct {
    union {
        struct {
            half d;
            half m;
        };
        half2 dm;
    };
    uint8_t tag[2];
    uint8_t qh[4];             // at byte 6: a uint32_t read here is 2-aligned, never 4-aligned
    uint8_t qs[4];
} block_u;                     // 16 bytes (14 rounded to the half2's alignment): a union, read member by member

float block_value(device const block_u* b, short j) {
    const uint hi = *((device const uint*)b->qh);
    return float(b->d) * float(b->qs[j] + ((hi >> (8 * j + b->tag[1])) & 1)) + float(b->dm.y);
}

// Block j of row i, from buffer a or, past `split` rows, from buffer b: the pointer's buffer is chosen at run time
// and it is made from bytes (rows of 2 blocks padded to 36 bytes).
kernel void chosen_blocks(device const char* a [[buffer(0)]],
                          device const char* b [[buffer(1)]],
                          constant uint& split [[buffer(2)]],
                          device float* y [[buffer(3)]],
                          uint2 gid [[thread_position_in_grid]]) {
    device const char* src = a;
    if (gid.y >= split)
        src = b;
    device const block_u* row = (device const block_u*)(src + gid.y * 36);
    y[gid.y * 8 + gid.x] = block_value(row + gid.x / 4, short(gid.x % 4));
}

// An array of pointers whose elements each point into a buffer chosen at run time (flash attention's per-query
// mask pointers once the mask moves to the padding buffer).
kernel void chosen_rows(device const char* a [[buffer(0)]],
                        device const char* b [[buffer(1)]],
                        constant uint& split [[buffer(2)]],
                        device float* y [[buffer(3)]],
                        uint i [[thread_position_in_grid]]) {
    device const float* rows[2];
    for (short r = 0; r < 2; ++r)
        rows[r] = (device const float*)((i + r) >= split ? b : a) + 4 * (i + r);
    y[i] = rows[0][1] + 10.0f * rows[1][2];
}

// A float4x4 read whole through a pointer made from bytes into a buffer chosen at run time (its columns).
kernel void chosen_tiles(device const char* a [[buffer(0)]],
                         device const char* b [[buffer(1)]],
                         constant uint& split [[buffer(2)]],
                         device float* y [[buffer(3)]],
                         uint i [[thread_position_in_grid]]) {
    device const char* base = i >= split ? b : a;
    device const float4x4* t = (device const float4x4*)(base + 16 + 64 * i);
    float4x4 m = *t;
    y[i] = m[1][2] + 100.0f * m[3][0];
}

float moved_param(device const float* p, device const float* other, uint i) {
    if (i % 2 == 1)
        p = other; // the parameter moves to another buffer inside the helper
    return p[i];
}

kernel void moved_parameter(device const float* a [[buffer(0)]],
                            device const float* b [[buffer(1)]],
                            device float* y [[buffer(2)]],
                            uint i [[thread_position_in_grid]]) {
    y[i] = moved_param(a, b, i);
}
