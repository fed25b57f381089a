// Template forms the translator does not take yet, each one error at its place; the other instance is written.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:12: error: calling a lambda that uses 'k' outside the function that declares it is not supported yet
// EXPECT-STDOUT: kernel fill_int
// EXPECT-ERROR: 26:27: error: function constant index in [[function_constant(kIndex)]] must be an integer constant expression of literals
// EXPECT-ERROR: 27:15: error: function constant 'wide' of type long is not supported yet
// EXPECT-STDOUT: #version 450
#include <metal_stdlib>
using namespace metal;

template <typename F> float apply(F f, float v) {
    return f(v);
}

template <typename T>
[[kernel]] void scale(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float k = 2.0f;
    auto times_k = [&](float v) { return v * k; };
    x[i] = apply(times_k, x[i]);
}

template <typename T>
[[kernel]] void fill(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = T(1); }

constant constexpr int kIndex = 3;
constant bool named_index [[function_constant(kIndex)]];
constant long wide [[function_constant(4)]];
kernel void uses_it(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = named_index ? 1.0f : float(wide); }

template [[host_name("scale_float")]] [[kernel]] decltype(scale<float>) scale<float>;
template [[host_name("fill_int")]] [[kernel]] void fill(device int*, uint);
template [[host_name("fill_float")]] [[kernel]] decltype(fill<float>) fill<float>;
