#include <metal_stdlib>
using namespace metal;

// Unions as the libraries write them. GLSL has no unions: a union is stored as its first member, which must hold
// all of it, and the members of an anonymous struct or union are members of the record around it (C11), so
// ggml's blocks keep Metal's layout; reading a union through another member is refused by name.
#define QK4_1 32
typedef struct {
    union {
        struct {
            half d; // delta
            half m; // min
        };
        half2 dm;
    };
    uchar qs[QK4_1 / 2]; // nibbles
} block_q4_1;            // 20 bytes: d 0, m 2, qs 4

// ggml's dequantize_q4_1: each thread one block of 32 floats.
kernel void dequantize_q4_1(device const block_q4_1* x [[buffer(0)]],
                            device float* y [[buffer(1)]],
                            uint ib [[thread_position_in_grid]]) {
    device const block_q4_1* b = x + ib;
    const float d = b->d;
    const float m = b->m;
    for (int j = 0; j < QK4_1 / 2; ++j) {
        y[ib * QK4_1 + j] = (b->qs[j] & 0x0F) * d + m;
        y[ib * QK4_1 + j + QK4_1 / 2] = (b->qs[j] >> 4) * d + m;
    }
}

union Scale {
    float4 v;
    float s[4];
};

struct Tagged {
    uint tag;
    union {
        float value;
        uint bits;
    };
};

// A named union in thread memory and an anonymous union member of a struct in a buffer, each through its first
// member; writes to the lifted member keep the struct's other members.
kernel void tagged_scale(device Tagged* t [[buffer(0)]],
                         uint i [[thread_position_in_grid]]) {
    Scale k;
    k.v = float4(0.5f, 2.0f, -1.0f, 4.0f);
    t[i].value *= k.v[t[i].tag % 4];
    t[i].tag += 1;
}
