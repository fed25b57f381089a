// Packed vectors: what is not translated is reported where it is used.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:33: error: struct 'Mixed' cannot be laid out in the scalar block layout
// EXPECT-ERROR: 17:37: error: a cast to packed_float3* of a pointer moved from its buffer's start is not supported yet
// EXPECT-ERROR: 21:39: error: packed_bfloat3 is not supported yet (parameter 'b')
// EXPECT-ERROR: 25:31: error: atomic_fetch_add_explicit: the atomic object must be written
#include <metal_stdlib>
using namespace metal;

// A float3 array (16-byte stride) beside a packed vector: the scalar block layout strides it by 12.
struct Mixed { packed_float3 a; float3 b[2]; };
kernel void mixed(device Mixed* m [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    m[i].a = m[i].b[0];
}

kernel void shifted(device const float* raw [[buffer(0)]], device float* y [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    device const packed_float3* v = (device const packed_float3*)(raw + 1);
    y[i] = v[i].x;
}

kernel void bf(device packed_bfloat3* b [[buffer(0)]], uint i [[thread_position_in_grid]]) {
}

kernel void count(device packed_uint3* p [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    atomic_fetch_add_explicit((device atomic_uint*)p, 1u, memory_order_relaxed);
}
