// Memory read through pointers of another type where the translator cannot (docs/translator.md, "Pointers").
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+18:22: error: threadgroup memory 'mixed' is read as several types, among them Tagged: only scalars, vectors, matrices and structs of scalars and vectors are supported there
// EXPECT-ERROR: @+30:15: error: a whole Block is read here, which is or holds a union (no GLSL type): read its members
// EXPECT-ERROR: @+35:5: error: a uint written into 'h' (of ushort) is not supported yet
// EXPECT-ERROR: @+43:14: error: a Pair read whole or at a 4-byte alignment through a pointer into a buffer chosen at run time, made from bytes
#include <metal_stdlib>
using namespace metal;

struct Pair {
    float a;
    int b;
};

struct Tagged {
    float a;
    bool flag;
};

kernel void tg_struct_and_float(device float* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup char mixed[64];
    threadgroup Tagged* p = (threadgroup Tagged*)mixed;
    threadgroup float* f = (threadgroup float*)mixed;
    p[i].a = 1.0f;
    y[i] = f[i];
}

struct Block {
    union { half d; ushort bits; };
    uchar q[2];
};

kernel void whole_union(device const Block* x [[buffer(0)]], device float* y [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    Block b = x[i];
    y[i] = b.q[0];
}

kernel void thread_wider_store(device uint* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    ushort h[2] = {};
    *(thread uint*)h = i;
    y[i] = h[1];
}

kernel void chosen_from_bytes(device const char* a [[buffer(0)]], device const char* b [[buffer(1)]],
                              device float* y [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    device const Pair* p = (device const Pair*)(a + 8 * i);
    if (i > 3)
        p = (device const Pair*)(b + 4);
    Pair v = *p;
    y[i] = v.a;
}
