// Packed vectors: what is not translated is reported where it is used (a packed pointer moved off the start of
// threadgroup memory: into buffers it is read member by member, samples/torch_kernels.metal).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 15:33: error: struct 'Mixed' cannot be laid out in the scalar block layout
// EXPECT-ERROR: 21:42: error: a cast to packed_float3* of a pointer moved from its buffer's start is not supported yet
// EXPECT-ERROR: 25:39: error: packed_bfloat3 is not supported yet (parameter 'b')
// EXPECT-ERROR: 29:31: error: atomic_fetch_add_explicit: the atomic object must be written
// EXPECT-ERROR: 40:1: error: packed vectors as template arguments are not supported yet (entry point 'scale_packed': template parameter 'T' is used in the kernel's body)
// EXPECT-ERROR: 47:1: error: packed vectors as template arguments are not supported yet (entry point 'passed_packed': parameter 'p' is used other than by a subscript)
#include <metal_stdlib>
using namespace metal;

// A float3 array (16-byte stride) beside a packed vector: the scalar block layout strides it by 12.
struct Mixed { packed_float3 a; float3 b[2]; };
kernel void mixed(device Mixed* m [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    m[i].a = m[i].b[0];
}

kernel void shifted(device float* y [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    threadgroup float raw[48];
    threadgroup const packed_float3* v = (threadgroup const packed_float3*)(raw + 1);
    y[i] = v[i].x;
}

kernel void bf(device packed_bfloat3* b [[buffer(0)]], uint i [[thread_position_in_grid]]) {
}

kernel void count(device packed_uint3* p [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    atomic_fetch_add_explicit((device atomic_uint*)p, 1u, memory_order_relaxed);
}

// clang 14 keeps no typedef name inside a template instance: T = packed_float3 would be read as float3 where the
// kernel's body names T, or where the parameter goes anywhere but a subscript (samples/pytorch_forms.metal's
// offsets_of has the supported form).
template <typename T>
kernel void scale(device T* p [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    T v = p[i];
    p[i] = v * 2.0f;
}
template [[host_name("scale_packed")]] [[kernel]] decltype(scale<packed_float3>) scale<packed_float3>;

template <typename T>
kernel void passed(device T* p [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    device float* q = (device float*)(p + i);
    q[0] = 1.0f;
}
template [[host_name("passed_packed")]] [[kernel]] decltype(passed<packed_float3>) passed<packed_float3>;
