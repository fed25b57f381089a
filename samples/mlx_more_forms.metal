#include <metal_stdlib>
#include <metal_logging>
using namespace metal;

// More of MLX's forms (binary_ops.h, gemv.h, complex.h, random.metal): shader logging that changes no result,
// arrays and structs of a type with constructors initialized from lists, a union returned by a function and
// copied into a local, written through one lane of a member and read as bytes.

// binary_ops.h's Power for integers: logs (MSL 3.2 os_log) and returns 0 for a negative exponent
constant os_log logger("mlx", "binary_ops");

kernel void int_power(device const int* base [[buffer(0)]],
                      device const int* expo [[buffer(1)]],
                      device int* out [[buffer(2)]],
                      uint i [[thread_position_in_grid]]) {
    int b = base[i], e = expo[i];
    if (e < 0) {
        logger.log_debug("int pow exp<0 (base=%ld exp=%ld)", (long)b, (long)e);
        out[i] = 0;
        return;
    }
    int res = 1;
    while (e) {
        if (e & 1)
            res *= b;
        e >>= 1;
        b *= b;
    }
    out[i] = res;
}

// complex.h's complex_t, reduced, with its fields in the other order (imag first): a list `{re, im}` names the
// constructor, not the fields; the default constructor is not zero, so elements it makes are seen
struct cplx {
    float imag;
    float real;
    constexpr cplx() thread : imag(-0.5f), real(0.25f) {}
    constexpr cplx(float re, float im) thread : imag(im), real(re) {}
    template <typename U>
    constexpr cplx(U x) thread : imag(0.0f), real(static_cast<float>(x)) {}
};

constexpr cplx operator*(cplx a, cplx b) {
    return cplx(a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real);
}

constexpr thread cplx& operator+=(thread cplx& a, cplx b) {
    a.real += b.real;
    a.imag += b.imag;
    return a;
}

struct cplx_pair {
    cplx first;
    cplx second;
};

// gemv.h's `AccT result[TM] = {0}`: each row of 4 accumulates a[row][k] * x[k] from 0; extra[] shows what
// `{2}` (converted, then default-made), `{{1, 2}, {3, 4}}`, `{}` and a struct of two members made from lists hold
kernel void complex_gemv(device const float2* a [[buffer(0)]],
                         device const float2* x [[buffer(1)]],
                         device float2* y [[buffer(2)]],
                         device float2* extra [[buffer(3)]],
                         constant int& k_size [[buffer(4)]],
                         uint gid [[thread_position_in_grid]]) {
    constexpr int TM = 4;
    cplx result[TM] = {0};
    for (int k = 0; k < k_size; k++) {
        cplx xv(x[k].x, x[k].y);
        for (int r = 0; r < TM; r++) {
            float2 av = a[(gid * TM + r) * k_size + k];
            result[r] += cplx(av.x, av.y) * xv;
        }
    }
    for (int r = 0; r < TM; r++)
        y[gid * TM + r] = float2(result[r].real, result[r].imag);
    cplx two[3] = {2};
    cplx listed[2] = {{1.0f, 2.0f}, {3.0f, 4.0f}};
    cplx none[2] = {};
    cplx_pair p = {{5.0f, 6.0f}, 7};
    device float2* e = extra + gid * 9;
    e[0] = float2(two[0].real, two[0].imag);
    e[1] = float2(two[2].real, two[2].imag);
    e[2] = float2(listed[0].real, listed[0].imag);
    e[3] = float2(listed[1].real, listed[1].imag);
    e[4] = float2(none[1].real, none[1].imag);
    e[5] = float2(p.first.real, p.first.imag);
    e[6] = float2(p.second.real, p.second.imag);
    e[7] = float2(result[0].real - result[1].real, float(k_size));
    e[8] = float2(float(gid), 0.0f);
}

// random.metal's threefry2x32_hash, reduced: a union returned by value, written lane by lane, read as bytes
union rbits {
    uint2 val;
    uchar4 bytes[2];
};

rbits mix_bits(const thread uint2& key, uint2 count) {
    rbits v;
    v.val.x = count.x + key.x;
    v.val.y = count.y + key.y;
    for (int i = 0; i < 3; ++i) {
        v.val.x += v.val.y;
        v.val.y = (v.val.y << 13) | (v.val.y >> 19);
        v.val.y ^= v.val.x;
    }
    return v;
}

kernel void union_bytes(device const uint32_t* keys [[buffer(0)]],
                        device uchar* out [[buffer(1)]],
                        constant uint& limit [[buffer(2)]],
                        uint index [[thread_position_in_grid]]) {
    auto key = uint2(keys[0], keys[1]);
    auto bits = mix_bits(key, uint2(index, index * 7u));
    for (uint j = 0; j < 4; ++j)
        out[8 * index + j] = bits.bytes[0][j];
    rbits copy = bits;
    for (uint j = 0; j < limit; ++j)
        out[8 * index + 4 + j] = copy.bytes[1][j];
}

// Only lists naming constructors (the old translation built these with GLSL's struct constructor, fields in
// declaration order, without a word: imag and real swapped)
kernel void ctor_lists(device const float* v [[buffer(0)]],
                       device float2* out [[buffer(1)]],
                       uint i [[thread_position_in_grid]]) {
    cplx listed[2] = {{v[i], 2.0f}, {3.0f, v[i] + 1.0f}};
    cplx_pair p = {{v[i] * 2.0f, -1.0f}, {4.0f, v[i]}};
    out[4 * i + 0] = float2(listed[0].real, listed[0].imag);
    out[4 * i + 1] = float2(listed[1].real, listed[1].imag);
    out[4 * i + 2] = float2(p.first.real, p.first.imag);
    out[4 * i + 3] = float2(p.second.real, p.second.imag);
}

// gemv.h's optional parameters: `bias`, `alpha` exist only when the function constant do_axpby is true (the host
// binds nothing there otherwise; the runtime binds a placeholder)
constant bool do_axpby [[function_constant(7)]];

kernel void optional_bias(device const float* x [[buffer(0)]],
                          device const float* bias [[buffer(1), function_constant(do_axpby)]],
                          device float* y [[buffer(2)]],
                          constant float& alpha [[buffer(3), function_constant(do_axpby)]],
                          uint i [[thread_position_in_grid]]) {
    float v = x[i] * 2.0f;
    if (do_axpby)
        v += alpha * bias[i];
    y[i] = v;
}
