// What MLX's C++ forms still refuse, each at its place: initializer-list elements made by a constructor, elements
// and members left to a default constructor or a default member initializer, and writes through the reference an
// operator returned (its callers get the value).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 33:25: error: an element of type int made into a cplx_float by its constructor in an initializer list is not supported yet
// EXPECT-ERROR: 38:24: error: the elements of cplx_float[3] that its initializer list leaves to cplx_float's default constructor are not supported yet
// EXPECT-ERROR: 43:18: error: the default member initializer of 'a' in struct with_default is not supported yet
// EXPECT-ERROR: 54:17: error: an array of more than 1024 cplx_float made by its constructor is not supported yet
// EXPECT-ERROR: 49:5: error: writing through (or taking the address of) the reference that 'first' returns (its parameter 'a') is not supported yet
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
