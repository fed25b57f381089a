// What MLX's C++ forms still refuse, each at its place: members left to a default member initializer, arrays of
// more than 1024 elements made by a constructor, and writes through the reference an operator returned (its
// callers get the value). Initializer-list elements made by a constructor (`{0}`, elements left to the default
// constructor) are translated as clang's semantic form says (samples/mlx_more_forms.metal).
// EXPECT-EXIT: 1
// EXPECT-STDOUT: kernel converted_element
// EXPECT-STDOUT: kernel left_to_constructor
// EXPECT-ERROR: 44:18: error: the default member initializer of 'a' in struct with_default is not supported yet
// EXPECT-ERROR: 55:17: error: an array of more than 1024 cplx_float made by its constructor is not supported yet
// EXPECT-ERROR: 50:5: error: writing through (or taking the address of) the reference that 'first' returns (its parameter 'a') is not supported yet
#include <metal_stdlib>
using namespace metal;

template <typename T>
struct cplx {
    T re;
    T im;
    cplx() thread : re(1), im(0) {}
    template <typename U>
    cplx(U x) thread : re(static_cast<T>(x)), im(0) {}
};

struct with_default {
    float a = 5.0f;
    float b;
};

thread float& first(thread float& a, float d) {
    a += d;
    return a;
}

kernel void converted_element(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    cplx<float> r[4] = {0};
    out[i] = r[0].re;
}

kernel void left_to_constructor(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    cplx<float> r[3] = {cplx<float>(2)};
    out[i] = r[2].re;
}

kernel void member_initializer(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    with_default d;
    out[i] = d.a;
}

kernel void written_through(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float v = out[i];
    first(v, 1.0f) = 3.0f;
    out[i] = v;
}

kernel void too_many(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    cplx<float> r[2000];
    out[i] = r[i % 2000].re;
}
