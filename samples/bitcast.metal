#include <metal_stdlib>
using namespace metal;

// as_type<T>(x) between every pair of same-size types, one kernel per size. Each thread takes one word x and
//  - writes as_type<A>(x) for every type A of that size (checked against NumPy's .view),
//  - reads the same bytes as each A from a buffer and writes as_type<word>(a),
//  - writes as_type<word>(as_type<B>(as_type<A>(x))) for every pair (A, B): every pair must give x back.
#define PAIR(W, a, B) pairs[k++ * n + i] = as_type<W>(as_type<B>(a));
#define FROM(W, EACH, A) { A a = as_type<A>(x); EACH(PAIR, W, a) }

#define EACH16(F, W, a) F(W, a, ushort) F(W, a, short) F(W, a, half) F(W, a, bfloat) F(W, a, char2) F(W, a, uchar2)
kernel void bits16(device const ushort* w [[buffer(0)]],
                   device const short* s_in [[buffer(1)]],
                   device const half* h_in [[buffer(2)]],
                   device const bfloat* b_in [[buffer(3)]],
                   device const char2* c_in [[buffer(4)]],
                   device const uchar2* uc_in [[buffer(5)]],
                   device short* s [[buffer(6)]],
                   device half* h [[buffer(7)]],
                   device bfloat* b [[buffer(8)]],
                   device char2* c [[buffer(9)]],
                   device uchar2* uc [[buffer(10)]],
                   device ushort* to_word [[buffer(11)]],
                   device ushort* pairs [[buffer(12)]],
                   uint i [[thread_position_in_grid]],
                   uint n [[threads_per_grid]]) {
    ushort x = w[i];
    s[i] = as_type<short>(x);
    h[i] = as_type<half>(x);
    b[i] = as_type<bfloat>(x);
    c[i] = as_type<char2>(x);
    uc[i] = as_type<uchar2>(x);
    to_word[0 * n + i] = as_type<ushort>(s_in[i]);
    to_word[1 * n + i] = as_type<ushort>(h_in[i]);
    to_word[2 * n + i] = as_type<ushort>(b_in[i]);
    to_word[3 * n + i] = as_type<ushort>(c_in[i]);
    to_word[4 * n + i] = as_type<ushort>(uc_in[i]);
    uint k = 0;
    FROM(ushort, EACH16, ushort) FROM(ushort, EACH16, short) FROM(ushort, EACH16, half)
    FROM(ushort, EACH16, bfloat) FROM(ushort, EACH16, char2) FROM(ushort, EACH16, uchar2)
}

#define EACH32(F, W, a) F(W, a, uint) F(W, a, int) F(W, a, float) F(W, a, half2) F(W, a, short2) F(W, a, ushort2) \
                        F(W, a, char4) F(W, a, uchar4) F(W, a, bfloat2)
kernel void bits32(device const uint* w [[buffer(0)]],
                   device const int* i_in [[buffer(1)]],
                   device const float* f_in [[buffer(2)]],
                   device const half2* h_in [[buffer(3)]],
                   device const short2* s_in [[buffer(4)]],
                   device const ushort2* us_in [[buffer(5)]],
                   device const char4* c_in [[buffer(6)]],
                   device const uchar4* uc_in [[buffer(7)]],
                   device int* iv [[buffer(8)]],
                   device float* f [[buffer(9)]],
                   device half2* h [[buffer(10)]],
                   device short2* s [[buffer(11)]],
                   device ushort2* us [[buffer(12)]],
                   device char4* c [[buffer(13)]],
                   device uchar4* uc [[buffer(14)]],
                   device uint* to_word [[buffer(15)]],
                   device uint* pairs [[buffer(16)]],
                   uint i [[thread_position_in_grid]],
                   uint n [[threads_per_grid]]) {
    uint x = w[i];
    iv[i] = as_type<int>(x);
    f[i] = as_type<float>(x);
    h[i] = as_type<half2>(x);
    s[i] = as_type<short2>(x);
    us[i] = as_type<ushort2>(x);
    c[i] = as_type<char4>(x);
    uc[i] = as_type<uchar4>(x);
    to_word[0 * n + i] = as_type<uint>(i_in[i]);
    to_word[1 * n + i] = as_type<uint>(f_in[i]);
    to_word[2 * n + i] = as_type<uint>(h_in[i]);
    to_word[3 * n + i] = as_type<uint>(s_in[i]);
    to_word[4 * n + i] = as_type<uint>(us_in[i]);
    to_word[5 * n + i] = as_type<uint>(c_in[i]);
    to_word[6 * n + i] = as_type<uint>(uc_in[i]);
    uint k = 0;
    FROM(uint, EACH32, uint) FROM(uint, EACH32, int) FROM(uint, EACH32, float) FROM(uint, EACH32, half2)
    FROM(uint, EACH32, short2) FROM(uint, EACH32, ushort2) FROM(uint, EACH32, char4) FROM(uint, EACH32, uchar4)
    FROM(uint, EACH32, bfloat2)
}

#define EACH64(F, W, a) F(W, a, ulong) F(W, a, long) F(W, a, uint2) F(W, a, int2) F(W, a, float2) F(W, a, half4) \
                        F(W, a, short4) F(W, a, ushort4) F(W, a, bfloat4)
kernel void bits64(device const ulong* w [[buffer(0)]],
                   device const long* l_in [[buffer(1)]],
                   device const uint2* u_in [[buffer(2)]],
                   device const int2* i_in [[buffer(3)]],
                   device const float2* f_in [[buffer(4)]],
                   device const half4* h_in [[buffer(5)]],
                   device const short4* s_in [[buffer(6)]],
                   device const ushort4* us_in [[buffer(7)]],
                   device long* l [[buffer(8)]],
                   device uint2* u [[buffer(9)]],
                   device int2* iv [[buffer(10)]],
                   device float2* f [[buffer(11)]],
                   device half4* h [[buffer(12)]],
                   device short4* s [[buffer(13)]],
                   device ushort4* us [[buffer(14)]],
                   device ulong* to_word [[buffer(15)]],
                   device ulong* pairs [[buffer(16)]],
                   uint i [[thread_position_in_grid]],
                   uint n [[threads_per_grid]]) {
    ulong x = w[i];
    l[i] = as_type<long>(x);
    u[i] = as_type<uint2>(x);
    iv[i] = as_type<int2>(x);
    f[i] = as_type<float2>(x);
    h[i] = as_type<half4>(x);
    s[i] = as_type<short4>(x);
    us[i] = as_type<ushort4>(x);
    to_word[0 * n + i] = as_type<ulong>(l_in[i]);
    to_word[1 * n + i] = as_type<ulong>(u_in[i]);
    to_word[2 * n + i] = as_type<ulong>(i_in[i]);
    to_word[3 * n + i] = as_type<ulong>(f_in[i]);
    to_word[4 * n + i] = as_type<ulong>(h_in[i]);
    to_word[5 * n + i] = as_type<ulong>(s_in[i]);
    to_word[6 * n + i] = as_type<ulong>(us_in[i]);
    uint k = 0;
    FROM(ulong, EACH64, ulong) FROM(ulong, EACH64, long) FROM(ulong, EACH64, uint2) FROM(ulong, EACH64, int2)
    FROM(ulong, EACH64, float2) FROM(ulong, EACH64, half4) FROM(ulong, EACH64, short4) FROM(ulong, EACH64, ushort4)
    FROM(ulong, EACH64, bfloat4)
}

// 128 bits, and the 3-vectors: Metal's float3 is 16 bytes and half3 8, so as_type<float3>(float4) keeps xyz and
// as_type<half3>(ulong) the low 48 bits.
kernel void bits128(device const uint4* w [[buffer(0)]],
                    device const long2* l_in [[buffer(1)]],
                    device float4* f [[buffer(2)]],
                    device int4* iv [[buffer(3)]],
                    device uint4* back [[buffer(4)]],
                    device ulong2* ul [[buffer(5)]],
                    device float* f3 [[buffer(6)]],
                    device uint* f3_bits [[buffer(7)]],
                    device int* i3 [[buffer(8)]],
                    device half* h3 [[buffer(9)]],
                    device ushort* h3_bits [[buffer(10)]],
                    device uchar* c3 [[buffer(11)]],
                    device int4* l_as_int4 [[buffer(12)]],
                    device ulong2* f_as_ulong2 [[buffer(13)]],
                    device long2* i3_as_long2 [[buffer(14)]],
                    uint i [[thread_position_in_grid]]) {
    uint4 x = w[i];
    float4 v = as_type<float4>(x);
    f[i] = v;
    iv[i] = as_type<int4>(v);
    back[i] = as_type<uint4>(as_type<int4>(as_type<float4>(as_type<int4>(x))));
    ul[i] = as_type<ulong2>(l_in[i]);
    float3 v3 = as_type<float3>(v);
    uint4 b3 = as_type<uint4>(v3);
    int3 n3 = as_type<int3>(v3);
    half3 hh = as_type<half3>(as_type<ulong>(x.xy));
    ushort4 hb = as_type<ushort4>(hh);
    uchar3 cc = as_type<uchar3>(x.z);
    l_as_int4[i] = as_type<int4>(l_in[i]);      // 64-bit components to 32-bit ones and back
    f_as_ulong2[i] = as_type<ulong2>(v);
    i3_as_long2[i] = as_type<long2>(n3);        // int3 is 16 bytes: its fourth word reads as 0 here
    for (int j = 0; j < 3; j++) {
        f3[i * 3 + j] = v3[j];
        f3_bits[i * 3 + j] = b3[j];
        i3[i * 3 + j] = n3[j];
        h3[i * 3 + j] = hh[j];
        h3_bits[i * 3 + j] = hb[j];
        c3[i * 3 + j] = cc[j];
    }
}
