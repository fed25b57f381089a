// Pointers the lowering cannot express, each named at its location.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+12:9: error: pointer 'p' points into 'a' and into 'b': only pointers into device or constant buffers may be chosen at run time
// EXPECT-ERROR: @+18:12: error: a float4 pointer into 'v' (of float) is not supported: thread memory and constants are read as another scalar type only
// EXPECT-ERROR: @+22:19: error: pointer 'p' points into 'v' or into 'w': only pointers into device or constant buffers
// EXPECT-ERROR: @+30:16: error: pointer member 'h.p' points into 'z' and into 'y': a pointer kept in a struct must point into one buffer
// EXPECT-ERROR: @+34:5: error: 'pick' returns a pointer into a buffer chosen at run time: not supported
#include <metal_stdlib>
using namespace metal;

kernel void tg_two_roots(device float* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup float a[16], b[16];
    threadgroup float* p = a;
    if (i > 4)
        p = b;
    y[i] = p[i];
}

kernel void thread_cast(device float4* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float v[16] = {};
    thread float4* v4 = (thread float4*)v;
    y[i] = v4[0];
}

kernel void two_locals(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float v[4] = {1.0f, 2.0f, 3.0f, 4.0f}, w[4] = {};
    thread float* p = i > 2 ? v : w;
    x[i] = p[0];
}

struct Holder { device float* p; };

kernel void pointer_in_struct(device float* y [[buffer(0)]], device float* z [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    Holder h;
    h.p = y;
    if (i > 2) h.p = z;
    h.p[i] = 1.0f;
}

device float* pick(device float* a, device float* b, bool first) {
    return first ? a : b;
}

kernel void returns_chosen(device float* a [[buffer(0)]], device float* b [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    pick(a, b, i > 3)[i] = 1.0f;
}
