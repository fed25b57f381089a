#include <metal_stdlib>
using namespace metal;

// Metal's conversions (MSL 2.14): static_cast and constructors convert without saturation, rounding to nearest
// even into a floating-point type and toward zero into an integer type; integers narrow modulo 2^n. A float
// outside the integer type's range is undefined in Metal as in C++, so these kernels clamp first where they
// need a defined result, as Metal code must; saturate() clamps a float to [0, 1].

// float -> half (ties to even, 65519 -> 65504, 65520 -> inf), float -> integers (toward zero), saturate.
kernel void from_float(device const float* f [[buffer(0)]],
                       device half* h [[buffer(1)]],
                       device int* iv [[buffer(2)]],
                       device uint* u [[buffer(3)]],
                       device short* s [[buffer(4)]],
                       device char* c [[buffer(5)]],
                       device float* sat [[buffer(6)]],
                       device half* hsat [[buffer(7)]],
                       uint i [[thread_position_in_grid]]) {
    float x = f[i];
    h[i] = half(x);
    iv[i] = int(clamp(x, -2147483648.0f, 2147483520.0f));
    u[i] = uint(clamp(fabs(x), 0.0f, 4294967040.0f));
    s[i] = short(clamp(x, -32768.0f, 32767.0f));
    c[i] = static_cast<char>(clamp(x, -128.0f, 127.0f));
    sat[i] = saturate(x);
    hsat[i] = saturate(half(x * 0.001f));
}

// Integers -> float and half (ties to even above 2^24 and 2^11), integer narrowing (modulo 2^n), widening.
kernel void from_int(device const int* iv [[buffer(0)]],
                     device const uint* u [[buffer(1)]],
                     device const long* l [[buffer(2)]],
                     device float* fi [[buffer(3)]],
                     device float* fu [[buffer(4)]],
                     device float* fl [[buffer(5)]],
                     device half* hi [[buffer(6)]],
                     device char* c [[buffer(7)]],
                     device ushort* us [[buffer(8)]],
                     device int* li [[buffer(9)]],
                     device uchar* uc [[buffer(10)]],
                     device long* wide [[buffer(11)]],
                     uint i [[thread_position_in_grid]]) {
    int a = iv[i];
    fi[i] = float(a);
    fu[i] = float(u[i]);
    fl[i] = float(l[i]);
    hi[i] = half(a % 65504);
    c[i] = char(a);
    us[i] = ushort(a);
    li[i] = int(l[i]);
    uc[i] = uchar(u[i]);
    wide[i] = long(a) * long(u[i] >> 8) + long(char(a));
}

// half -> float (exact), -> int (toward zero), -> bfloat (through float: one rounding).
kernel void from_half(device const half* h [[buffer(0)]],
                      device float* f [[buffer(1)]],
                      device int* iv [[buffer(2)]],
                      device bfloat* b [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
    half x = h[i];
    f[i] = float(x);
    iv[i] = int(x);
    b[i] = bfloat(float(x));
}
