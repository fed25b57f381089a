#include <metal_stdlib>
using namespace metal;

// Pointers walked, cast, compared and handed to helpers, as real kernels use them.

struct Block {        // a 4-bit quantized block: 32 weights, one half scale (18 bytes, 2-aligned)
    half scale;
    uchar nibbles[16];
};

// Dot product of a row of 4-bit blocks with x: the row is read through a uchar pointer (block start),
// the scale through a ushort pointer cast from it, the nibbles as uchar.
float block_dot(device const uchar* q, device const float* x, uint nblocks) {
    float acc = 0.0f;
    for (uint b = 0; b < nblocks; b++) {
        ushort bits = *(device const ushort*)q;          // the half scale's bits
        float d = float(as_type<half>(bits));
        device const uchar* nib = q + 2;
        float s = 0.0f;
        for (int j = 0; j < 16; j++) {
            int lo = int(nib[j] & 0x0F) - 8;
            int hi = int(nib[j] >> 4) - 8;
            s += float(lo) * x[j] + float(hi) * x[j + 16];
        }
        acc += d * s;
        q += 18;
        x += 32;
    }
    return acc;
}

kernel void q4_matvec(device const uchar* w [[buffer(0)]],
                      device const float* x [[buffer(1)]],
                      device float* y [[buffer(2)]],
                      constant uint& nblocks [[buffer(3)]],
                      uint row [[thread_position_in_grid]]) {
    device const uchar* q = w + row * nblocks * 18;
    y[row] = block_dot(q, x, nblocks);
}

// The same product through a struct view of the same bytes.
kernel void q4_matvec_struct(device const uchar* w [[buffer(0)]],
                             device const float* x [[buffer(1)]],
                             device float* y [[buffer(2)]],
                             constant uint& nblocks [[buffer(3)]],
                             uint row [[thread_position_in_grid]]) {
    device const Block* blocks = (device const Block*)w + row * nblocks;
    float acc = 0.0f;
    for (uint b = 0; b < nblocks; b++) {
        device const Block& blk = blocks[b];
        float s = 0.0f;
        for (int j = 0; j < 16; j++) {
            s += float(int(blk.nibbles[j] & 0x0F) - 8) * x[b * 32 + j];
            s += float(int(blk.nibbles[j] >> 4) - 8) * x[b * 32 + j + 16];
        }
        acc += float(blk.scale) * s;
    }
    y[row] = acc;
}

// Adds n floats from src to dst, four at a time through float4 pointers, then the rest one by one.
void add_into(device float* dst, device const float* src, int n) {
    device float4* d4 = (device float4*)dst;
    device const float4* s4 = (device const float4*)src;
    int i = 0;
    for (; i + 4 <= n; i += 4)
        *d4++ += *s4++;
    for (; i < n; i++)
        dst[i] += src[i];
}

void scale_ref(device float& v, float s) {
    v *= s;
}

// Rows of a matrix (all but their last two columns) added to an accumulator row chosen at run time; pointer
// differences and comparisons. For any cols: the float4 pointers are then off 16-byte alignment, as ggml's rows are.
kernel void pointer_walk(device float* acc [[buffer(0)]],
                         device const float* m [[buffer(1)]],
                         device int* info [[buffer(2)]],
                         constant uint& cols [[buffer(3)]],
                         constant uint& rows [[buffer(4)]],
                         uint t [[thread_position_in_grid]]) {
    device float* out = (t & 1u) != 0u ? acc + t * cols : acc + (t + 1u) * cols - cols;
    device const float* end = m + rows * cols;
    for (device const float* r = m; r < end; r += cols)
        add_into(out, r, int(cols) - 2);
    scale_ref(out[0], 2.0f);
    device float& last = out[cols - 1];
    last = -last;
    info[t] = int(end - m);
}

// Threadgroup and thread pointers: a tile walked through a pointer, a local array through another.
kernel void local_pointers(device const float* x [[buffer(0)]],
                           device float* y [[buffer(1)]],
                           uint lid [[thread_position_in_threadgroup]],
                           uint gid [[thread_position_in_grid]]) {
    threadgroup float tile[64];
    threadgroup float* mine = tile + lid;
    *mine = x[gid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float v[4];
    thread float* p = v;
    for (uint k = 0; k < 4; k++)
        *p++ = tile[(lid + k) % 64u];
    thread float* q = &v[3];
    y[gid] = v[0] + v[1] + v[2] + *q;
}

// Rows of ne0 floats read and written through float4 pointers at any ne0: walked with ++, compared with an end
// pointer and subtracted, all off 16-byte alignment where ne0 % 4 != 0 (ggml's rows are cast so).
kernel void vector_rows(device const float* src [[buffer(0)]],
                        device float* dst [[buffer(1)]],
                        constant uint& ne0 [[buffer(2)]],
                        uint row [[thread_position_in_grid]]) {
    device const float4* s = (device const float4*)(src + row * ne0);
    device const float4* e = s + ne0 / 4;
    device float4* d = (device float4*)(dst + row * ne0);
    for (; s < e; ++s, ++d)
        *d = *s + float4(1.0f, 2.0f, 3.0f, 4.0f);
    dst[row * ne0 + ne0 - 1] = float(e - (device const float4*)(src + row * ne0));
}
