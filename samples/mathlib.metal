#include <metal_stdlib>
using namespace metal;

// Error function by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7);
// the Metal standard library has no erf, so kernels bring their own.
static float erf_approx(float x) {
    float t = 1.0f / (1.0f + 0.3275911f * abs(x));
    float poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f +
                 t * (-1.453152027f + t * 1.061405429f))));
    return copysign(1.0f - poly * exp(-x * x), x);
}

constant int MATH_OUTPUTS = 52;

// Calls each float function of the Metal standard library once per thread.
// a is in [-1, 1] (with exact halves and zeros), b in [0.5, 2],
// c = 4a hits the .5 rounding cases, z is +-[0.5, 2], s holds NaN/Inf/zeros.
kernel void math_float(device const float* x [[buffer(0)]],
                       device const float* y [[buffer(1)]],
                       device const float* zs [[buffer(2)]],
                       device const float* specials [[buffer(3)]],
                       device float* out [[buffer(4)]],
                       uint i [[thread_position_in_grid]]) {
    float a = x[i];
    float b = y[i];
    float z = zs[i];
    float s = specials[i];
    float c = 4.0f * a;
    uint o = MATH_OUTPUTS * i;

    out[o + 0] = abs(a);
    out[o + 1] = min(a, z);
    out[o + 2] = max(a, z);
    out[o + 3] = clamp(a, -0.5f, 0.5f);
    out[o + 4] = mix(a, b, 0.25f);
    out[o + 5] = fma(a, b, 0.5f);
    out[o + 6] = sqrt(b);
    out[o + 7] = rsqrt(b);
    out[o + 8] = exp(a);
    out[o + 9] = exp2(a);
    out[o + 10] = exp10(a);
    out[o + 11] = log(b);
    out[o + 12] = log2(b);
    out[o + 13] = log10(b);
    out[o + 14] = pow(b, a);
    out[o + 15] = powr(b, 2.0f * a);
    out[o + 16] = sin(a);
    out[o + 17] = cos(a);
    out[o + 18] = tan(a);
    out[o + 19] = asin(0.9f * a);
    out[o + 20] = acos(0.9f * a);
    out[o + 21] = atan(c);
    out[o + 22] = atan2(a, z);
    out[o + 23] = sinh(a);
    out[o + 24] = cosh(a);
    out[o + 25] = tanh(c);
    out[o + 26] = floor(c);
    out[o + 27] = ceil(c);
    out[o + 28] = round(c);
    out[o + 29] = rint(c);
    out[o + 30] = trunc(c);
    out[o + 31] = fract(c);
    out[o + 32] = fmod(c, z);
    out[o + 33] = copysign(b, z);
    out[o + 34] = sign(c);
    out[o + 35] = step(0.25f, a);
    out[o + 36] = smoothstep(-0.5f, 0.5f, a);
    out[o + 37] = isnan(s) ? 1.0f : 0.0f;
    out[o + 38] = isinf(s) ? 1.0f : 0.0f;
    out[o + 39] = isfinite(s) ? 1.0f : 0.0f;
    out[o + 40] = signbit(s) ? 1.0f : 0.0f;
    out[o + 41] = erf_approx(c);
    out[o + 42] = precise::sqrt(b);
    out[o + 43] = precise::exp(a);
    out[o + 44] = precise::tanh(c);
    out[o + 45] = fast::exp(a);
    out[o + 46] = fast::sin(a);
    out[o + 47] = fast::pow(b, a);
    out[o + 48] = metal::abs(z) + metal::fast::log(b);
    out[o + 49] = fmod(-c, 1.5f);
    out[o + 50] = min(max(c, -1.0f), 1.0f) + float(uint(b * 3.0f));
    out[o + 51] = float(int(c)) + float(int(-2.5f * a));
}

constant int INT_OUTPUTS = 16;

// Integer functions and bit casts; u and v are random 32-bit patterns,
// f random floats.
kernel void math_int(device const uint* u [[buffer(0)]],
                     device const int* v [[buffer(1)]],
                     device const float* f [[buffer(2)]],
                     device uint* out [[buffer(3)]],
                     uint i [[thread_position_in_grid]]) {
    uint p = u[i];
    int q = v[i];
    uint shift = p & 31u;
    uint offset = (p >> 8) & 15u;
    uint bits = (p >> 16) % 17u;
    uint o = INT_OUTPUTS * i;

    out[o + 0] = popcount(p);
    out[o + 1] = clz(p >> shift);
    out[o + 2] = ctz(p << shift);
    out[o + 3] = mulhi(p, 0x9e3779b9u);
    out[o + 4] = as_type<uint>(mulhi(q, -123456789));
    out[o + 5] = rotate(p, shift);
    out[o + 6] = extract_bits(p, offset, bits);
    out[o + 7] = as_type<uint>(extract_bits(q, offset, bits));
    out[o + 8] = insert_bits(p, 0x5a5a5a5au, offset, bits);
    out[o + 9] = reverse_bits(p);
    out[o + 10] = as_type<uint>(f[i]);
    out[o + 11] = as_type<uint>(abs(q) / 3 - q % 5);
    out[o + 12] = as_type<uint>(min(q, 1000) ^ max(q, -1000));
    out[o + 13] = uint(clamp(q, -70000, 70000) >> 3);
    out[o + 14] = as_type<uint>(as_type<float>((p & 0x007fffffu) | 0x3f800000u) * 2.0f);
    out[o + 15] = uint(abs(f[i]) * 100.0f) + uint(int(f[i] * -7.0f));
}

constant int MORE_OUTPUTS = 26;

// The rest of <metal_math>, <metal_common>, <metal_relational> and <metal_geometric> that has a GLSL form:
// same inputs as math_float.
kernel void math_more(device const float* x [[buffer(0)]],
                      device const float* y [[buffer(1)]],
                      device const float* zs [[buffer(2)]],
                      device const float* specials [[buffer(3)]],
                      device float* out [[buffer(4)]],
                      uint i [[thread_position_in_grid]]) {
    float a = x[i];
    float b = y[i];
    float z = zs[i];
    float s = specials[i];
    float c = 4.0f * a;
    uint o = MORE_OUTPUTS * i;

    out[o + 0] = sinpi(c);
    out[o + 1] = cospi(c);
    out[o + 2] = tanpi(0.2f * a);
    out[o + 3] = asinpi(0.9f * a) + acospi(0.9f * a);
    out[o + 4] = atanpi(c);
    out[o + 5] = atan2pi(a, z);
    out[o + 6] = fmax3(a, b, z);
    out[o + 7] = fmin3(a, b, z);
    out[o + 8] = fmedian3(a, b, z);
    out[o + 9] = median3(c, a, z) + max3(a, b, z) - min3(a, b, z);
    out[o + 10] = fdim(a, z);
    out[o + 11] = divide(a, b);
    out[o + 12] = ldexp(b, int(c));
    int e;
    out[o + 13] = frexp(z * 100.0f, e);
    out[o + 14] = float(e);
    float whole;
    out[o + 15] = modf(c + 0.3f, whole);
    out[o + 16] = whole;
    float cosine;
    out[o + 17] = sincos(a, cosine);
    out[o + 18] = cosine;
    out[o + 19] = isunordered(s, a) ? 1.0f : 0.0f;
    out[o + 20] = isordered(a, s) ? 1.0f : 0.0f;
    float3 p = float3(a, b, z);
    float3 q = float3(z, a, b);
    out[o + 21] = length_squared(p);
    out[o + 22] = distance_squared(p, q);
    out[o + 23] = reflect(p, normalize(q)).y;
    out[o + 24] = faceforward(p, q, float3(1.0f, 0.0f, 0.0f)).x;
    out[o + 25] = M_PI_2_F * M_1_PI_F + M_SQRT1_2_F * M_LOG2E_F - float(any(isunordered(float2(s, a), float2(a, b))));
}

constant int INT_MORE_OUTPUTS = 9;

// The rest of <metal_integer>: u and v random 32-bit patterns.
kernel void math_int_more(device const uint* u [[buffer(0)]],
                          device const int* v [[buffer(1)]],
                          device uint* out [[buffer(2)]],
                          uint i [[thread_position_in_grid]]) {
    uint p = u[i];
    int q = v[i];
    uint o = INT_MORE_OUTPUTS * i;

    out[o + 0] = absdiff(q, -q / 3);
    out[o + 1] = absdiff(p, 0x7fffffffu);
    out[o + 2] = hadd(p, 0xdeadbeefu);
    out[o + 3] = as_type<uint>(rhadd(q, -1234567));
    out[o + 4] = madhi(p, 0x9e3779b9u, 5u);
    out[o + 5] = mul24(p & 0xffffu, 300u);
    out[o + 6] = mad24(p & 0xfffu, 77u, 11u);
    out[o + 7] = as_type<uint>(median3(q, 0, 1000) + max3(q, -5, 5) - min3(q, 7, -7));
    out[o + 8] = max3(p, 1u, 2u) ^ min3(p, 1u, 2u) ^ median3(p, 100u, 200u);
}
