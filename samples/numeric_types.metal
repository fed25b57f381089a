#include <metal_stdlib>
using namespace metal;

// half storage and arithmetic: y = a * x + b, in half, with a half4 view of the same rows.
kernel void half_axpb(device const half* x [[buffer(0)]],
                      device half* y [[buffer(1)]],
                      constant float& a [[buffer(2)]],
                      constant float& b [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
    half ha = half(a), hb = half(b);
    y[i] = ha * x[i] + hb;
}

kernel void half4_scale(device const half4* x [[buffer(0)]],
                        device half4* y [[buffer(1)]],
                        uint i [[thread_position_in_grid]]) {
    half4 v = x[i];
    y[i] = v * half(0.5) + half4(v.wzyx);
}

// 8- and 16-bit integers wrap at their width; 64-bit integers hold what 32 bits cannot.
kernel void small_ints(device const char* c [[buffer(0)]],
                       device const uchar* u [[buffer(1)]],
                       device const short* s [[buffer(2)]],
                       device char* c_out [[buffer(3)]],
                       device ushort* s_out [[buffer(4)]],
                       device long* l_out [[buffer(5)]],
                       uint i [[thread_position_in_grid]]) {
    char a = c[i];
    uchar b = u[i];
    c_out[i] = char(a * 3 + char(b));               // int arithmetic, truncated to 8 bits
    s_out[i] = ushort(s[i]) * ushort(7) + ushort(b); // wraps modulo 2^16
    long big = long(s[i]) * 100000L * long(b);
    l_out[i] = big + long(a);
}

// Conversions: float -> int rounds toward zero; int -> half rounds to nearest; ulong arithmetic.
kernel void conversions(device const float* f [[buffer(0)]],
                        device int* i_out [[buffer(1)]],
                        device half* h_out [[buffer(2)]],
                        device ulong* u64 [[buffer(3)]],
                        uint i [[thread_position_in_grid]]) {
    i_out[i] = int(f[i]);
    h_out[i] = half(int(f[i] * 16.0f));
    u64[i] = ulong(i) * 0x100000001UL + (ulong(1) << 40);
}

// Vectors of the small and wide integer types.
kernel void int_vectors(device const char4* c [[buffer(0)]],
                        device const ushort2* s [[buffer(1)]],
                        device const long2* l [[buffer(2)]],
                        device int4* c_out [[buffer(3)]],
                        device ushort2* s_out [[buffer(4)]],
                        device long2* l_out [[buffer(5)]],
                        uint i [[thread_position_in_grid]]) {
    c_out[i] = int4(c[i]) * 2 - int4(c[i].wzyx);
    s_out[i] = s[i] * ushort2(3, 5) + s[i].yx;
    l_out[i] = l[i] * long2(1000000L, -3L) + long2(int(i));
}

// as_type between 64-bit shapes and between 32-bit shapes.
kernel void as_type_bits(device const ulong* u [[buffer(0)]],
                         device uint2* halves [[buffer(1)]],
                         device float2* floats [[buffer(2)]],
                         device long* back [[buffer(3)]],
                         device half2* h2 [[buffer(4)]],
                         device uchar4* bytes [[buffer(5)]],
                         uint i [[thread_position_in_grid]]) {
    ulong v = u[i];
    halves[i] = as_type<uint2>(v);
    float2 f = as_type<float2>(v);
    floats[i] = f;
    back[i] = as_type<long>(as_type<int2>(f)) + 1;
    uint lo = as_type<uint2>(v).x;
    h2[i] = as_type<half2>(lo);
    bytes[i] = as_type<uchar4>(as_type<float>(lo));
}
