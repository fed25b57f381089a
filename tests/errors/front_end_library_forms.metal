// Metal forms of MLX's kernels that clang's OpenCL mode refuses as written, which the front end rewrites: a braced
// list passed for a vector parameter (elem_to_loc_2_nd), a template constructor qualified `thread` and `constant`
// (complex_t), a struct's `static constexpr constant` member of class type (the reduction ops' init, Limits<T>),
// `?:` between the same struct in two address spaces, and a row of a multi-dimensional threadgroup array of a kernel
// template used as a threadgroup pointer (MLX's attention, `s_xchg[row_group][d_half]`; `sizeof` of a row stays the
// row's size). --syntax-only compiles every body: no error.
// ARGS: --syntax-only %s
// EXPECT-EXIT: 0
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

struct pair2 {
  float a, b;
  constexpr pair2() thread : a(0.0f), b(0.0f) {}
  constexpr pair2() threadgroup : a(0.0f), b(0.0f) {}
  constexpr pair2(float x, float y) thread : a(x), b(y) {}
  template <typename U> constexpr pair2(U x) thread : a(static_cast<float>(x)), b(0.0f) {}
  template <typename U> constexpr pair2(U x) constant : a(static_cast<float>(x)), b(0.0f) {}
};
template <typename U> struct SumOp {
  U simd_reduce(U v) { return v; }
  static constexpr constant U init = U(0);
};
template <typename U> struct Limits {
  static constexpr constant U max = metal::numeric_limits<U>::infinity();
};

template <typename IdxT>
METAL_FUNC vec<IdxT, 2> loc_2(uint3 e, constant const uint* shape) {
  return vec<IdxT, 2>(IdxT(e.x + shape[0] * e.y), IdxT(e.z));
}
METAL_FUNC uint flat(uint3 e, constant const uint* shape) { return e.x + shape[0] * (e.y + shape[1] * e.z); }

template <typename T, typename Op, int N>
[[kernel]] void forms(device const float* x, device T* out, constant const uint* shape,
                      uint3 gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]]) {
  uint i = flat({N * gid.x, gid.y, gid.z}, shape);
  auto l = loc_2<int>({gid.x, gid.y, gid.z}, shape);
  threadgroup T shared_v[32];
  shared_v[lid] = T(x[i]);
  T pick = x[l.x] > 0.0f ? shared_v[lid] : Op::init;
  out[i] = x[i] > Limits<float>::max ? Op::init : pick;
}
template [[host_name("forms_pair")]] [[kernel]] decltype(forms<pair2, SumOp<pair2>, 2>) forms<pair2, SumOp<pair2>, 2>;
template [[host_name("forms_float")]] [[kernel]] decltype(forms<float, SumOp<float>, 1>) forms<float, SumOp<float>, 1>;
template [[host_name("forms_bfloat")]] [[kernel]] decltype(forms<bfloat, SumOp<bfloat>, 1>) forms<bfloat, SumOp<bfloat>, 1>;

template <typename T, int G>
[[kernel]] void exchange_rows(device const T* x [[buffer(0)]], device T* y [[buffer(1)]],
                              uint lid [[thread_index_in_threadgroup]], uint grp [[threadgroup_position_in_grid]]) {
  threadgroup T slots[2][G][32];
  threadgroup T* mine = slots[0][lid / 32];
  const threadgroup T* peer = slots[0][(lid / 32 + 1) % G];
  static_assert(sizeof(slots[1]) == G * 32 * sizeof(T) && sizeof(slots[1][0]) == 32 * sizeof(T), "rows");
  mine[lid % 32] = x[grp * 32 * G + lid];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  y[grp * 32 * G + lid] = peer[lid % 32];
}
template [[host_name("exchange_rows_float")]] [[kernel]] decltype(exchange_rows<float, 2>) exchange_rows<float, 2>;
