#include <metal_stdlib>
using namespace metal;

// Row reductions as a kernel template with threadgroup memory and barriers (MLX's reduction pattern, our code):
// operators are struct templates with a static constexpr identity, passed as a template template parameter,
// and the threadgroup size is a non-type parameter.

template <typename U> struct Sum {
    static constexpr U init = U(0);
    U operator()(U a, U b) const { return a + b; }
};

template <typename U> struct Max {
    static constexpr U init = numeric_limits<U>::lowest();
    U operator()(U a, U b) const { return a > b ? a : b; }
};

template <typename T, typename U, template <typename> class Op, int TG>
[[kernel]] void row_reduce(device const T* in [[buffer(0)]],
                           device U* out [[buffer(1)]],
                           constant uint& cols [[buffer(2)]],
                           uint lid [[thread_position_in_threadgroup]],
                           uint row [[threadgroup_position_in_grid]]) {
    threadgroup U partial[TG];
    Op<U> op;
    U acc = Op<U>::init;
    for (uint c = lid; c < cols; c += TG) {
        acc = op(acc, static_cast<U>(in[row * cols + c]));
    }
    partial[lid] = acc;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint s = TG / 2; s > 0; s /= 2) {
        if (lid < s) {
            partial[lid] = op(partial[lid], partial[lid + s]);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (lid == 0) {
        out[row] = partial[0];
    }
}

#define instantiate_row_reduce(name, T, U, Op, TG)                                               \
    template [[host_name("row_" #name "_" #T "_" #TG)]] [[kernel]] decltype(row_reduce<T, U, Op, TG>) \
        row_reduce<T, U, Op, TG>;

instantiate_row_reduce(sum, float, float, Sum, 64)
instantiate_row_reduce(sum, half, float, Sum, 32)
instantiate_row_reduce(sum, int, int, Sum, 128)
instantiate_row_reduce(max, float, float, Max, 64)
instantiate_row_reduce(max, int, int, Max, 32)
