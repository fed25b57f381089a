// c10_like.h: a small operator library in the style of PyTorch's c10/metal headers (our own code).
// Functors with a templated operator(), a trait-driven accumulation type, and macros that instantiate one
// kernel per operator and dtype with [[host_name]].
#pragma once
#include <metal_stdlib>
using namespace metal;

namespace c10 {
namespace metal {

// The type arithmetic is done in: float for half, the type itself otherwise.
template <typename T> struct OpMathType { using type = T; };
template <> struct OpMathType<half> { using type = float; };
template <typename T> using opmath_t = typename OpMathType<T>::type;

template <typename T, typename U> inline T cast_to(U x) { return static_cast<T>(x); }

} // namespace metal
} // namespace c10

struct neg_functor {
    template <typename T> T operator()(T x) const { return -x; }
};

struct square_functor {
    template <typename T> T operator()(T x) const { return x * x; }
};

// x if x > 0 else alpha * x, alpha a member set by the constructor.
struct leaky_relu_functor {
    float alpha;
    leaky_relu_functor(float a) : alpha(a) {}
    template <typename T> T operator()(T x) const {
        using M = c10::metal::opmath_t<T>;
        M m = static_cast<M>(x);
        return c10::metal::cast_to<T>(m > M(0) ? m : static_cast<M>(alpha * float(m)));
    }
};

struct add_functor {
    template <typename T> T operator()(T a, T b) const { return a + b; }
};

struct maximum_functor {
    template <typename T> T operator()(T a, T b) const { return a > b ? a : b; }
};

// floor division for integers, true division for floating point: chosen with if constexpr and a trait
struct div_functor {
    template <typename T> T operator()(T a, T b) const {
        if constexpr (is_floating_point_v<T>) {
            return a / b;
        } else {
            T q = a / b;
            return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
        }
    }
};

template <typename T, typename F>
kernel void unary_kernel(device const T* input [[buffer(0)]], device T* output [[buffer(1)]],
                         uint index [[thread_position_in_grid]]) {
    F f;
    output[index] = f(input[index]);
}

template <typename T>
kernel void leaky_relu_kernel(device const T* input [[buffer(0)]], device T* output [[buffer(1)]],
                              constant float& alpha [[buffer(2)]], uint index [[thread_position_in_grid]]) {
    leaky_relu_functor f(alpha);
    output[index] = f(input[index]);
}

template <typename T, typename F>
kernel void binary_kernel(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]],
                          device T* out [[buffer(2)]], uint index [[thread_position_in_grid]]) {
    out[index] = F()(a[index], b[index]);
}

#define REGISTER_UNARY_OP(NAME, DTYPE)                                                  \
    template [[host_name(#NAME "_" #DTYPE)]] [[kernel]] void unary_kernel<DTYPE, NAME##_functor>( \
        device const DTYPE* input, device DTYPE* output, uint index);

#define REGISTER_BINARY_OP(NAME, DTYPE)                                                 \
    template [[host_name(#NAME "_" #DTYPE)]] [[kernel]] decltype(binary_kernel<DTYPE, NAME##_functor>) \
        binary_kernel<DTYPE, NAME##_functor>;
