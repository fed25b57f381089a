#include <metal_stdlib>
using namespace metal;

// Templated unary, binary and copy kernels in the style of MLX (our own code): contiguous (v) and strided (g)
// variants, operators as functors, instantiated per dtype by macros.

namespace mlx_like {

// Shape and strides (in elements) of a strided operand, passed by value as `constant Layout&`.
struct Layout {
    int shape[4];
    int strides[4];
};

// The location of element ELEM (row-major over shape) in a strided array of NDIM dimensions.
template <int NDIM, typename IdxT = int>
IdxT elem_to_loc(uint elem, constant Layout& l) {
    IdxT loc = 0;
    for (int i = NDIM - 1; i >= 0; --i) {
        loc += IdxT(elem % uint(l.shape[i])) * IdxT(l.strides[i]);
        elem /= uint(l.shape[i]);
    }
    return loc;
}

// One dimension: an overload, not an instance of the template.
inline int elem_to_loc(uint elem, int stride) {
    return int(elem) * stride;
}

namespace ops {
struct Abs {
    template <typename T> T operator()(T x) {
        if constexpr (is_unsigned_v<T>) {
            return x;
        } else {
            return x < T(0) ? -x : x;
        }
    }
};
struct Exp {
    template <typename T> enable_if_t<is_floating_point_v<T>, T> operator()(T x) { return metal::exp(x); }
};
// through the compiler builtin, as MLX's utils.h writes its overloads
struct FastExp {
    template <typename T> T operator()(T x) { return __metal_exp(x, __METAL_MAYBE_FAST_MATH__); }
};
struct Sigmoid {
    template <typename T> T operator()(T x) {
        auto y = 1.0f / (1.0f + metal::exp(-float(x)));
        return static_cast<T>(y);
    }
};
struct Add {
    template <typename T> T operator()(T a, T b) { return a + b; }
};
struct Minimum {
    template <typename T> T operator()(T a, T b) { return metal::min(a, b); }
};
struct Multiply {
    template <typename T> T operator()(T a, T b) { return a * b; }
};
} // namespace ops
} // namespace mlx_like

using namespace mlx_like;

template <typename T, typename Op>
[[kernel]] void unary_v(device const T* in [[buffer(0)]], device T* out [[buffer(1)]], uint index [[thread_position_in_grid]]) {
    out[index] = Op()(in[index]);
}

template <typename T, typename Op, int NDIM>
[[kernel]] void unary_g(device const T* in [[buffer(0)]], device T* out [[buffer(1)]],
                        constant Layout& in_layout [[buffer(2)]], uint index [[thread_position_in_grid]]) {
    auto loc = elem_to_loc<NDIM>(index, in_layout);
    out[index] = Op()(in[loc]);
}

template <typename T, typename Op>
[[kernel]] void binary_vv(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]], device T* out [[buffer(2)]],
                          uint index [[thread_position_in_grid]]) {
    out[index] = Op()(a[index], b[index]);
}

template <typename T, typename Op>
[[kernel]] void binary_sv(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]], device T* out [[buffer(2)]],
                          uint index [[thread_position_in_grid]]) {
    out[index] = Op()(a[0], b[index]);
}

template <typename T, typename Op>
[[kernel]] void binary_vs(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]], device T* out [[buffer(2)]],
                          uint index [[thread_position_in_grid]]) {
    out[index] = Op()(a[index], b[0]);
}

template <typename T, typename Op, int NDIM>
[[kernel]] void binary_g(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]], device T* out [[buffer(2)]],
                         constant Layout& a_layout [[buffer(3)]], constant Layout& b_layout [[buffer(4)]],
                         uint index [[thread_position_in_grid]]) {
    Op op;
    out[index] = op(a[elem_to_loc<NDIM>(index, a_layout)], b[elem_to_loc<NDIM>(index, b_layout)]);
}

template <typename T, typename U>
[[kernel]] void copy_v(device const T* src [[buffer(0)]], device U* dst [[buffer(1)]], uint index [[thread_position_in_grid]]) {
    dst[index] = static_cast<U>(src[index]);
}

// A one-dimensional strided copy through the overload, and an N-dimensional one through the template.
template <typename T, typename U>
[[kernel]] void copy_g1(device const T* src [[buffer(0)]], device U* dst [[buffer(1)]], constant int& stride [[buffer(2)]],
                        uint index [[thread_position_in_grid]]) {
    dst[index] = static_cast<U>(src[elem_to_loc(index, stride)]);
}

template <typename T, typename U, int NDIM>
[[kernel]] void copy_g(device const T* src [[buffer(0)]], device U* dst [[buffer(1)]], constant Layout& src_layout [[buffer(2)]],
                       uint index [[thread_position_in_grid]]) {
    dst[index] = static_cast<U>(src[elem_to_loc<NDIM>(index, src_layout)]);
}

#define instantiate_unary(name, T, Op)                                                                  \
    template [[host_name("v_" #name "_" #T)]] [[kernel]] decltype(unary_v<T, ops::Op>) unary_v<T, ops::Op>; \
    template [[host_name("g2_" #name "_" #T)]] [[kernel]] decltype(unary_g<T, ops::Op, 2>) unary_g<T, ops::Op, 2>;

#define instantiate_binary(name, T, Op)                                                                    \
    template [[host_name("vv_" #name "_" #T)]] [[kernel]] decltype(binary_vv<T, ops::Op>) binary_vv<T, ops::Op>; \
    template [[host_name("g3_" #name "_" #T)]] [[kernel]] decltype(binary_g<T, ops::Op, 3>) binary_g<T, ops::Op, 3>;

// with the scalar-vector variants too
#define instantiate_binary_all(name, T, Op)                                                                \
    instantiate_binary(name, T, Op)                                                                        \
    template [[host_name("sv_" #name "_" #T)]] [[kernel]] decltype(binary_sv<T, ops::Op>) binary_sv<T, ops::Op>; \
    template [[host_name("vs_" #name "_" #T)]] [[kernel]] decltype(binary_vs<T, ops::Op>) binary_vs<T, ops::Op>;

#define instantiate_copy(T, U)                                                                          \
    template [[host_name("copy_v_" #T "_" #U)]] [[kernel]] decltype(copy_v<T, U>) copy_v<T, U>;          \
    template [[host_name("copy_g2_" #T "_" #U)]] [[kernel]] decltype(copy_g<T, U, 2>) copy_g<T, U, 2>;

instantiate_unary(abs, float, Abs)
instantiate_unary(abs, int, Abs)
instantiate_unary(abs, uint, Abs)
instantiate_unary(exp, float, Exp)
instantiate_unary(exp, half, Exp)
instantiate_unary(sigmoid, float, Sigmoid)
instantiate_unary(fastexp, float, FastExp)
instantiate_binary_all(add, float, Add)
instantiate_binary(add, half, Add)
instantiate_binary(add, int, Add)
instantiate_binary(minimum, float, Minimum)
instantiate_binary_all(multiply, int, Multiply)
instantiate_copy(float, float)
template [[host_name("copy_g1_float_float")]] [[kernel]] decltype(copy_g1<float, float>) copy_g1<float, float>;
instantiate_copy(half, float)
instantiate_copy(int, float)
instantiate_copy(float, half)

// bfloat instances under MLX's name for the type: the functors compute in float and round where T is made.
typedef bfloat bfloat16_t;
instantiate_unary(abs, bfloat16_t, Abs)
instantiate_unary(sigmoid, bfloat16_t, Sigmoid)
instantiate_binary(add, bfloat16_t, Add)
instantiate_binary(minimum, bfloat16_t, Minimum)
instantiate_copy(float, bfloat16_t)
instantiate_copy(bfloat16_t, float)
