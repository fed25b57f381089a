// Pointers the index lowering cannot express, each named at its location.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+11:9: error: pointer 'p' points into 'a' and into 'b': only pointers into device or constant buffers may be chosen at run time
// EXPECT-ERROR: @+17:12: error: a float4 pointer into 'tile' (of float) is not supported: only buffers can be read as another element type
// EXPECT-ERROR: @+23:18: error: a pointer into the local array 'v' cannot be passed to a helper
// EXPECT-ERROR: @+28:19: error: cannot tell which buffer or array pointer 'p' points into
#include <metal_stdlib>
using namespace metal;

kernel void tg_two_roots(device float* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup float a[16], b[16];
    threadgroup float* p = a;
    if (i > 4)
        p = b;
    y[i] = p[i];
}

kernel void tg_cast(device float* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup float tile[16];
    threadgroup float4* t4 = (threadgroup float4*)tile;
    y[i] = t4[0].x;
}

float first(thread float* p) { return p[0]; }

kernel void local_to_helper(device float* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float v[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    y[i] = first(v);
}

struct Pair { float a; float b; };

kernel void member_addr(device Pair* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    device float* p = &y[i].b;
    *p = 1.0f;
}
