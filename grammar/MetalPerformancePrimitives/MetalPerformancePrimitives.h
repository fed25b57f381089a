/* MetalPerformancePrimitives (Metal 4): mpp::tensor_ops::matmul2d over metal::tensor and cooperative tensors, as MLX's
   *_nax kernels and ggml use them. Not translated yet: declared so that kernels using them parse and get an error
   naming the construct (get_destination_cooperative_tensor, run, ...). */
#ifndef __MTL2GLSL_MPP
#define __MTL2GLSL_MPP
#include <metal_tensor>
namespace mpp {
namespace tensor_ops {
struct matmul2d_descriptor {
    enum class mode { multiply, multiply_accumulate };
    int __m, __n, __k;
    bool __transpose_left, __transpose_right, __relaxed_precision;
    mode __mode;
    constexpr matmul2d_descriptor(int __m_, int __n_, int __k_ = -1, bool __tl = false, bool __tr = false,
                                  bool __rp = false, mode __md = mode::multiply)
        : __m(__m_), __n(__n_), __k(__k_), __transpose_left(__tl), __transpose_right(__tr), __relaxed_precision(__rp),
          __mode(__md) {}
    /* clang parses Metal as C++17, which takes no class-type template arguments: matmul2d<desc, ...> reads the
       descriptor through this conversion. */
    constexpr operator int() const { return 0; }
};
template <typename _E> struct __mtl_cooperative_tensor {
    typedef _E element_type;
    _E &operator[](int);
    const _E &operator[](int) const;
    int get_capacity() const;
    bool is_valid_element(int) const;
    metal::array<int, 2> get_multidimensional_index(int) const;
    template <typename... _A> void load(_A &&...);
    template <typename... _A> void store(_A &&...) const;
};
template <typename _T> struct __mtl_element { typedef _T type; };
template <typename _E, typename _X, typename _D> struct __mtl_element<metal::tensor<_E, _X, _D>> {
    typedef metal::remove_address_space_t<_E> type;
};
template <int __desc, typename _Scope, typename... _R> struct matmul2d {
    template <typename _A, typename _B, typename _C>
    __mtl_cooperative_tensor<typename __mtl_element<_A>::type> get_left_input_cooperative_tensor() const;
    template <typename _A, typename _B, typename _C>
    __mtl_cooperative_tensor<typename __mtl_element<_B>::type> get_right_input_cooperative_tensor() const;
    template <typename _A, typename _B, typename _C>
    __mtl_cooperative_tensor<typename __mtl_element<_C>::type> get_destination_cooperative_tensor() const;
    template <typename... _A> void run(_A &&...) const;
};
} /* namespace tensor_ops */
} /* namespace mpp */
#endif
