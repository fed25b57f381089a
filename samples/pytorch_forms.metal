#include <metal_stdlib>
using namespace metal;

// Forms of PyTorch's c10 kernels, each translated as Metal means it.

// c10's ref_at_offs: a reference into a buffer at a byte offset, through reinterpret_cast; the helper returns a
// reference to device memory (an index into the buffer in GLSL) and the caller assigns through it.
template <typename T>
inline constant T& ref_at_offs(constant char* ptr, long offs) {
    return *reinterpret_cast<constant T*>(static_cast<constant char*>(ptr) + offs);
}
template <typename T>
inline device T& ref_at_offs(device char* ptr, long offs) {
    return *reinterpret_cast<device T*>(static_cast<device char*>(ptr) + offs);
}

// A strided binary op as c10's binary_strided writes it: byte strides, one dimension.
template <typename T>
kernel void mul_strided(device char* output [[buffer(0)]],
                        constant char* input [[buffer(1)]],
                        constant char* other [[buffer(2)]],
                        constant long& input_stride [[buffer(3)]],
                        constant long& other_stride [[buffer(4)]],
                        uint index [[thread_position_in_grid]]) {
    const auto a = ref_at_offs<T>(input, index * input_stride);
    const auto b = ref_at_offs<T>(other, index * other_stride);
    ref_at_offs<T>(output, index * sizeof(T)) = a * b;
    const_cast<device T&>(ref_at_offs<T>(output, index * sizeof(T))) += T(1);
}
template [[host_name("mul_strided_float")]] kernel void mul_strided<float>(device char*, constant char*, constant char*,
                                                                          constant long&, constant long&, uint);
template [[host_name("mul_strided_int")]] kernel void mul_strided<int>(device char*, constant char*, constant char*,
                                                                      constant long&, constant long&, uint);

// c10's chbevl: an unsized array parameter (a pointer in C) given local tables of two sizes.
template <typename T>
T chbevl(T x, const float array[], const int len) {
    T b0 = array[0], b1 = 0, b2 = 0;
    for (int i = 1; i < len; ++i) {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + array[i];
    }
    return T(0.5) * (b0 - b2);
}

// LossCTC's switch on a long: a value past 32 bits takes the default, not the label of its low bits.
kernel void series(device float* out [[buffer(0)]],
                   constant long& base [[buffer(1)]],
                   uint i [[thread_position_in_grid]]) {
    constexpr float A[3] = {1.0f, -0.5f, 0.25f};
    constexpr float B[5] = {0.125f, 2.0f, -1.0f, 0.5f, 3.0f};
    float x = float(i % 7) * 0.25f;
    float r;
    long s = base + long(i % 4);
    switch (s) {
    case 0:
        r = chbevl(x, A, 3);
        break;
    case 1:
        r = chbevl(x, B, 5);
        break;
    default:
        r = 100.0f;
    }
    out[i] = r;
}
