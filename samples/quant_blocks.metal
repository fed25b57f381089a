#include <metal_stdlib>
using namespace metal;

// Quantized blocks read and written the way ggml's kernels do: through `device const void*` / `char*` buffers,
// byte offsets from the host's strides, casts to block pointers, uint16_t pointers into a block, a union, and a
// uint32_t read at byte 2 of a block (Apple GPUs tolerate it). The rows in the tests are padded so that a block
// starts at a byte offset that is not a multiple of its size, and the output rows so that a float4x4 does not
// start at a multiple of 64 bytes: a pointer counting whole blocks would read the wrong bytes.

#define QK4_0 32
typedef struct {
    half d;                    // scale
    uint8_t qs[QK4_0 / 2];     // 32 nibbles: element j low, j + 16 high
} block_q4_0;                  // 18 bytes, 2-aligned

#define QK4_1 32
typedef struct {
    union {
        struct {
            half d;            // scale
            half m;            // minimum
        };
        half2 dm;
    };
    uint8_t qs[QK4_1 / 2];
} block_q4_1;                  // 20 bytes

#define QK5_0 32
typedef struct {
    half d;
    uint8_t qh[4];             // the fifth bits, at byte 2
    uint8_t qs[QK5_0 / 2];
} block_q5_0;                  // 22 bytes

#define QK8_0 32
typedef struct {
    half d;
    int8_t qs[QK8_0];
} block_q8_0;                  // 34 bytes

typedef struct {
    int32_t  ne00;             // elements per row
    uint64_t nb01;             // bytes per source row
    uint64_t nb1;              // bytes per destination row
    uint64_t nb10;             // bytes per row index
} get_rows_args;

// 16 weights of a q4_0 block (il = 0: the low nibbles, elements 0..15; il = 1: the high ones, 16..31), read
// two bytes at a time through a uint16_t pointer past the scale.
template <typename type4x4>
void dequantize_q4_0(device const block_q4_0* xb, short il, thread type4x4& reg) {
    device const uint16_t* qs = (device const uint16_t*)xb + 1;
    const float d = xb->d;
    const ushort shift = il ? 4 : 0;
    for (int i = 0; i < 8; i++) {
        const ushort w = qs[i] >> shift;
        reg[i / 2][2 * (i % 2) + 0] = d * (float(w & 0x000F) - 8.0f);
        reg[i / 2][2 * (i % 2) + 1] = d * (float((w >> 8) & 0x000F) - 8.0f);
    }
}

// q4_1: scale and minimum through the union's half2, the nibbles byte by byte.
template <typename type4x4>
void dequantize_q4_1(device const block_q4_1* xb, short il, thread type4x4& reg) {
    const float2 dm = float2(xb->dm);
    device const uint8_t* qs = xb->qs;
    for (int i = 0; i < 16; i++) {
        const uint8_t b = il ? (qs[i] >> 4) : (qs[i] & 0x0F);
        reg[i / 4][i % 4] = dm.x * b + dm.y;
    }
}

// q5_0: the fifth bits as one uint32_t read at byte 2 of the block (2-aligned only).
template <typename type4x4>
void dequantize_q5_0(device const block_q5_0* xb, short il, thread type4x4& reg) {
    const uint32_t qh = *((device const uint32_t*)xb->qh);
    const float d = xb->d;
    for (int i = 0; i < 16; i++) {
        const int j = i + 16 * il;
        const uint8_t lo = il ? (xb->qs[i] >> 4) : (xb->qs[i] & 0x0F);
        const int q = int(lo | (((qh >> j) & 1u) << 4)) - 16;
        reg[i / 4][i % 4] = d * q;
    }
}

template <typename type4x4>
void dequantize_q8_0(device const block_q8_0* xb, short il, thread type4x4& reg) {
    device const int8_t* qs = xb->qs + 16 * il;
    const float d = xb->d;
    for (int i = 0; i < 16; i++)
        reg[i / 4][i % 4] = qs[i] * d;
}

// Gathers rows: threadgroup x copies row src1[x] of src0, dequantized, 16 floats (one float4x4) per step.
template <typename block_q, short nl, void (*dequantize_func)(device const block_q*, short, thread float4x4&)>
kernel void get_rows_q(constant get_rows_args& args [[buffer(0)]],
                       device const void* src0 [[buffer(1)]],
                       device const void* src1 [[buffer(2)]],
                       device void* dst [[buffer(3)]],
                       uint3 tgpig [[threadgroup_position_in_grid]],
                       ushort tiitg [[thread_index_in_threadgroup]],
                       ushort3 ntg [[threads_per_threadgroup]]) {
    const int32_t r = ((const device int32_t*)((const device char*)src1 + tgpig.x * args.nb10))[0];
    auto psrc = (device const block_q*)((const device char*)src0 + r * args.nb01);
    auto pdst = (device float4x4*)((device char*)dst + tgpig.x * args.nb1);
    for (int ind = tiitg; ind < args.ne00 / 16; ind += ntg.x) {
        float4x4 temp;
        dequantize_func(psrc + ind / nl, ind % nl, temp);
        pdst[ind] = temp;
    }
}

typedef decltype(get_rows_q<block_q4_0, 2, dequantize_q4_0>) get_rows_q_t;

template [[host_name("get_rows_q4_0")]] kernel get_rows_q_t get_rows_q<block_q4_0, 2, dequantize_q4_0>;
template [[host_name("get_rows_q4_1")]] kernel get_rows_q_t get_rows_q<block_q4_1, 2, dequantize_q4_1>;
template [[host_name("get_rows_q5_0")]] kernel get_rows_q_t get_rows_q<block_q5_0, 2, dequantize_q5_0>;
template [[host_name("get_rows_q8_0")]] kernel get_rows_q_t get_rows_q<block_q8_0, 2, dequantize_q8_0>;

typedef struct {
    int32_t  nblocks;          // blocks per row
    uint64_t nb01;             // bytes per quantized row
} mv_args;

// The dot product of a q4_0 block with 32 floats: the nibbles through a uint16_t pointer, the scale through
// the union-free block pointer itself.
float block_dot_q4_0(device const block_q4_0* qb, device const float* y) {
    device const uint16_t* qs = (device const uint16_t*)qb + 1;
    float acc = 0.0f;
    for (int i = 0; i < 8; i++) {
        const ushort w = qs[i];
        acc += y[2 * i + 0] * (float(w & 0x000F) - 8.0f) + y[2 * i + 16] * (float((w >> 4) & 0x000F) - 8.0f);
        acc += y[2 * i + 1] * (float((w >> 8) & 0x000F) - 8.0f) + y[2 * i + 17] * (float(w >> 12) - 8.0f);
    }
    return qb->d * acc;
}

// Matrix-vector product with q4_0 rows: a block pointer advanced in the loop (x++), y by 32 floats.
kernel void mul_mv_q4_0(constant mv_args& args [[buffer(0)]],
                        device const char* src0 [[buffer(1)]],
                        device const float* src1 [[buffer(2)]],
                        device float* dst [[buffer(3)]],
                        uint row [[thread_position_in_grid]]) {
    device const block_q4_0* x = (device const block_q4_0*)(src0 + row * args.nb01);
    device const float* y = src1;
    float sum = 0.0f;
    for (int ib = 0; ib < args.nblocks; ib++) {
        sum += block_dot_q4_0(x, y);
        x++;
        y += QK4_0;
    }
    dst[row] = sum;
}

// Matrix-vector product with q8_0 rows, each block copied whole into a local (read member by member).
kernel void mul_mv_q8_0(constant mv_args& args [[buffer(0)]],
                        device const char* src0 [[buffer(1)]],
                        device const float* src1 [[buffer(2)]],
                        device float* dst [[buffer(3)]],
                        uint row [[thread_position_in_grid]]) {
    device const block_q8_0* x = (device const block_q8_0*)(src0 + row * args.nb01);
    float sum = 0.0f;
    for (int ib = 0; ib < args.nblocks; ib++) {
        const block_q8_0 b = x[ib];
        float acc = 0.0f;
        for (int j = 0; j < QK8_0; j++)
            acc += b.qs[j] * src1[ib * QK8_0 + j];
        sum += float(b.d) * acc;
    }
    dst[row] = sum;
}

// Quantizes float rows to q8_0 blocks at padded byte rows: one block per thread, built in a local and stored
// whole (written member by member), then its scale written again through the member.
kernel void quantize_q8_0(constant mv_args& args [[buffer(0)]],
                          device const float* src [[buffer(1)]],
                          device char* dst [[buffer(2)]],
                          uint2 gid [[thread_position_in_grid]]) {
    const int ib = gid.x, row = gid.y;
    device const float* x = src + (row * args.nblocks + ib) * QK8_0;
    float amax = 0.0f;
    for (int j = 0; j < QK8_0; j++)
        amax = max(amax, fabs(x[j]));
    const float d = amax / 127.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    block_q8_0 b;
    b.d = d;
    for (int j = 0; j < QK8_0; j++)
        b.qs[j] = int8_t(round(x[j] * id));
    device block_q8_0* out = (device block_q8_0*)(dst + row * args.nb01) + ib;
    *out = b;
    out->d = half(d);
}
