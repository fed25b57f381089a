// The forms the proof of half values (translator/lower/halfexact.c) must see through or refuse; tests/tensor_cores.py
// translates each entry point with --tensor-cores and checks where its one product runs. The name says it:
// tc_* on the tensor cores (every value is a half value), exact_* on the FP32 units (some value may not be).
#include <metal_stdlib>
using namespace metal;

inline float2 frag_of(const threadgroup half* p, ushort lane) { return float2(p[2 * lane], p[2 * lane + 1]); }
inline float2 frag_of_float(device const float* p, ushort lane) { return float2(p[2 * lane], p[2 * lane + 1]); }
inline void fill_from(thread float2& f, device const float* p, ushort lane) { f = float2(p[2 * lane], p[2 * lane + 1]); }
inline void fill_zero(thread float2& f) { f = float2(0.0f); }

inline void product(device float* out, float2 a, float2 b, ushort lane) {
    simdgroup_float8x8 am, bm, cm;
    am.thread_elements() = a;
    bm.thread_elements() = b;
    simdgroup_multiply(cm, am, bm);
    float2 c = cm.thread_elements();
    out[2 * lane] = c.x;
    out[2 * lane + 1] = c.y;
}

#define STAGE                                                   \
    threadgroup half hs[64];                                    \
    hs[2 * lane] = h[2 * lane];                                 \
    hs[2 * lane + 1] = h[2 * lane + 1];                         \
    threadgroup_barrier(mem_flags::mem_threadgroup);

// a helper's return value: half threadgroup memory converted
kernel void tc_returned(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                        ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = frag_of(hs, lane), b = frag_of(hs, lane ^ 1);
    product(out, a, b, lane);
}

// literals that half holds exactly, ?: and negation of half values, uchar and bool values
kernel void tc_literals(device const half* h [[buffer(0)]], device const uchar* u [[buffer(2)]], device float* out [[buffer(1)]],
                        ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = lane < 16 ? frag_of(hs, lane) : float2(0.5f, -2048.0f);
    float2 b = -frag_of(hs, lane);
    b.x = lane == 3 ? float(u[lane]) : b.x;
    b.y = float(lane > 7);
    product(out, a, b, lane);
}

// written by a helper through an inout parameter (zero), then by assignment from half
kernel void tc_inout(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                     ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a, b;
    fill_zero(a);
    fill_zero(b);
    if (lane < 8)
        a = frag_of(hs, lane);
    b = frag_of(hs, lane);
    product(out, a, b, lane);
}

// a helper's return value read from a float buffer
kernel void exact_returned(device const float* f [[buffer(0)]], device float* out [[buffer(1)]],
                           ushort lane [[thread_index_in_simdgroup]]) {
    float2 a = frag_of_float(f, lane), b = a;
    product(out, a, b, lane);
}

// a literal half does not hold exactly (0.1)
kernel void exact_literal(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                          ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = frag_of(hs, lane), b = frag_of(hs, lane);
    if (lane == 0)
        b.y = 0.1f;
    product(out, a, b, lane);
}

// 4097 (13 significant bits), and a uint above 2048 converted
kernel void exact_integers(device const half* h [[buffer(0)]], device const uint* n [[buffer(2)]], device float* out [[buffer(1)]],
                           ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = frag_of(hs, lane), b = float2(4097.0f, float(n[0]));
    product(out, a, b, lane);
}

// copied back out of a helper's inout parameter that stores float buffer values
kernel void exact_copied_back(device const half* h [[buffer(0)]], device const float* f [[buffer(2)]], device float* out [[buffer(1)]],
                              ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = frag_of(hs, lane), b = frag_of(hs, lane);
    if (lane == 31)
        fill_from(b, f, lane);
    product(out, a, b, lane);
}

// updated in place: a sum of half values need not be one
kernel void exact_updated(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                          ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = frag_of(hs, lane), b = frag_of(hs, lane);
    b += a;
    product(out, a, b, lane);
}

// written through a pointer
kernel void exact_pointer(device const half* h [[buffer(0)]], device const float* f [[buffer(2)]], device float* out [[buffer(1)]],
                          ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = frag_of(hs, lane);
    float vals[2] = {a.x, a.y};
    thread float* p = vals + 1;
    *p = f[lane];
    product(out, a, float2(vals[0], vals[1]), lane);
}

struct Frags {
    float2 v;
};

inline Frags frags_of(const threadgroup half* p, ushort lane) {
    Frags f;
    f.v = frag_of(p, lane);
    return f;
}

// objects of one struct type, one of them holding a product: each object's members are places of their own; and
// a struct returned by a helper (its object's members)
kernel void tc_struct_objects(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                              ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    Frags a = frags_of(hs, lane), b, c;
    b.v = frag_of(hs, lane);
    c.v = a.v * b.v;
    product(out, a.v, b.v, lane);
    out[64 + lane] = c.v.x;
}

// a struct copied whole from an object that holds a product
kernel void exact_struct_copy(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                              ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    Frags a, b, c;
    a.v = frag_of(hs, lane);
    b.v = frag_of(hs, lane);
    c.v = a.v * b.v;
    if (lane == 5)
        b = c;
    product(out, a.v, b.v, lane);
}

inline void mma_frags(thread float2& d, float2 a, float2 b) {
    simdgroup_float8x8 am, bm, dm;
    am.thread_elements() = a;
    bm.thread_elements() = b;
    simdgroup_multiply(dm, am, bm);
    d = dm.thread_elements();
}

inline void first_product(thread float2& s, float2 a, float2 b) { mma_frags(s, a, b); }

// one helper's product called with half values (through first_product) and with a product's result: a copy of it
// per caller, so that the first call takes the tensor cores and the second stays exact
kernel void tc_per_caller(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                          ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = frag_of(hs, lane), s, o;
    first_product(s, a, a);
    mma_frags(o, s, a);
    out[2 * lane] = o.x;
    out[2 * lane + 1] = o.y;
}

// after tc_per_caller, the same helpers called from here with half values: the copy made for that kernel is gone
// (tensor_cores.py compares each kernel of the file translated whole with the kernel translated alone)
kernel void tc_shared_helpers(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                              ushort lane [[thread_index_in_simdgroup]]) {
    STAGE
    float2 a = frag_of(hs, lane), s;
    first_product(s, a, a);
    out[2 * lane] = s.x;
    out[2 * lane + 1] = s.y;
}

// half values in float threadgroup memory: not trusted (its writes may come through pointers, from anywhere)
kernel void exact_float_threadgroup(device const half* h [[buffer(0)]], device float* out [[buffer(1)]],
                                    ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup float fs[64];
    fs[2 * lane] = h[2 * lane];
    fs[2 * lane + 1] = h[2 * lane + 1];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float2 a = float2(fs[2 * lane], fs[2 * lane + 1]), b = a;
    product(out, a, b, lane);
}

// bfloat values are not half values
kernel void exact_bfloat(device const bfloat* g [[buffer(0)]], device float* out [[buffer(1)]],
                         ushort lane [[thread_index_in_simdgroup]]) {
    float2 a = float2(g[2 * lane], g[2 * lane + 1]), b = a;
    product(out, a, b, lane);
}
