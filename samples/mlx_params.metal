// MLX's kernel parameter forms (mlx/backend/metal/kernels: binary.h, arange.h, random.metal): strides passed as
// `constant const int64_t a_strides[2]` arrays (a pointer to constant memory the host fills with setBytes) and
// 8/16-bit `constant T&` scalars (push constants of that size, or 32-bit words with --push-constant-words).
#include <metal_stdlib>
using namespace metal;

// The helper takes the array parameter as MLX's elem_to_loc_2 does: the pointer is passed on.
template <typename IdxT = int64_t>
IdxT loc_2(uint2 elem, constant const int64_t strides[2]) {
  return elem.x * IdxT(strides[1]) + elem.y * IdxT(strides[0]);
}

template <typename IdxT = int64_t>
IdxT loc_3(uint3 elem, constant const int strides[3]) {
  return elem.x * IdxT(strides[2]) + elem.y * IdxT(strides[1]) + elem.z * IdxT(strides[0]);
}

// out[y, x] = a[a_strides . (y, x)] + b[b_strides . (y, x)], as MLX's binary_g_nd2
kernel void add_nd2(
    device const float* a [[buffer(0)]],
    device const float* b [[buffer(1)]],
    device float* out [[buffer(2)]],
    constant const int64_t a_strides[2] [[buffer(3)]],
    constant const int64_t b_strides[2] [[buffer(4)]],
    uint2 index [[thread_position_in_grid]],
    uint2 grid_dim [[threads_per_grid]]) {
  auto a_idx = loc_2<int64_t>(index, a_strides);
  auto b_idx = loc_2<int64_t>(index, b_strides);
  int64_t out_idx = index.x + int64_t(grid_dim.x) * index.y;
  out[out_idx] = a[a_idx] + b[b_idx];
}

// out = a gathered through int[3] strides (conv's `constant const int strides[3]`), read also directly
kernel void gather_nd3(
    device const int* a [[buffer(0)]],
    device int* out [[buffer(1)]],
    constant const int strides[3] [[buffer(2)]],
    uint3 index [[thread_position_in_grid]],
    uint3 grid_dim [[threads_per_grid]]) {
  int idx = loc_3<int>(index, strides);
  out[index.x + grid_dim.x * (index.y + grid_dim.y * index.z)] = a[idx] + strides[0] - strides[0];
}

// MLX's arange for every element type: start and step are `constant const T&`
template <typename T>
[[kernel]] void arange(
    constant const T& start,
    constant const T& step,
    device T* out,
    uint index [[thread_position_in_grid]]) {
  out[index] = start + index * step;
}

template [[host_name("arange_uchar")]] [[kernel]] decltype(arange<uchar>) arange<uchar>;
template [[host_name("arange_char")]] [[kernel]] decltype(arange<char>) arange<char>;
template [[host_name("arange_ushort")]] [[kernel]] decltype(arange<ushort>) arange<ushort>;
template [[host_name("arange_short")]] [[kernel]] decltype(arange<short>) arange<short>;
template [[host_name("arange_half")]] [[kernel]] decltype(arange<half>) arange<half>;
template [[host_name("arange_bfloat")]] [[kernel]] decltype(arange<bfloat>) arange<bfloat>;

// random.metal's `constant const bool& odd` beside a 16-bit scalar
kernel void select_small(
    device const int* x [[buffer(0)]],
    device int* out [[buffer(1)]],
    constant const bool& odd [[buffer(2)]],
    constant const short& bias [[buffer(3)]],
    uint i [[thread_position_in_grid]]) {
  out[i] = odd ? x[i] + bias : x[i] - bias;
}

// arg_reduce.metal's reduction step on 8/16-bit values: simd_shuffle_down and bf16_math.h's compiler builtin,
// a sum and a max (all computed on the 32-bit extension and truncated, as Metal's narrow arithmetic wraps),
// a shuffle-and-fill-up over __metal_get_simdgroup_size lanes
template <typename T>
[[kernel]] void shuffle_small(
    device const T* x [[buffer(0)]],
    device T* down [[buffer(1)]],
    device T* raw_down [[buffer(2)]],
    device T* sums [[buffer(3)]],
    device T* maxes [[buffer(4)]],
    device T* filled [[buffer(5)]],
    uint i [[thread_position_in_grid]]) {
  T v = x[i];
  down[i] = simd_shuffle_down(v, 3);
  raw_down[i] = __metal_simd_shuffle_down(v, ushort(7));
  sums[i] = simd_sum(v);
  maxes[i] = simd_max(v);
  // bf16_math.h's simd_shuffle_and_fill_up without a modulo: the SIMD-group's width from the compiler builtin
  filled[i] = __metal_simd_shuffle_and_fill_up(v, T(v + 1), ushort(2), __metal_get_simdgroup_size(ushort()));
}

template [[host_name("shuffle_small_uchar")]] [[kernel]] decltype(shuffle_small<uchar>) shuffle_small<uchar>;
template [[host_name("shuffle_small_char")]] [[kernel]] decltype(shuffle_small<char>) shuffle_small<char>;
template [[host_name("shuffle_small_ushort")]] [[kernel]] decltype(shuffle_small<ushort>) shuffle_small<ushort>;
template [[host_name("shuffle_small_short")]] [[kernel]] decltype(shuffle_small<short>) shuffle_small<short>;

// conv.metal's naive_unfold: `valid &= cond` on a bool (C++ promotes both to int) and `(void)lid;`
kernel void window_valid(
    device const int* pos [[buffer(0)]],
    device int* out [[buffer(1)]],
    constant const int& limit [[buffer(2)]],
    uint i [[thread_position_in_grid]],
    uint lid [[thread_position_in_threadgroup]]) {
  (void)lid;
  bool valid = true;
  for (int k = 0; k < 3; ++k) {
    int p = pos[3 * i + k];
    valid &= p >= 0 && p < limit && (p % 2 == 0);
  }
  bool any_odd = false;
  any_odd |= (pos[3 * i] & 1) != 0;
  out[i] = valid ? 1 : (any_odd ? 2 : 0);
}

// Constant references past 128 bytes of push constants are storage buffers: 8/16-bit ones hold their own size
struct Table {
  float4 rows[8];
};

kernel void small_in_storage(
    constant Table& table [[buffer(0)]],
    constant bool& on [[buffer(1)]],
    constant uchar& shift [[buffer(2)]],
    constant half& scale [[buffer(3)]],
    device float* out [[buffer(4)]],
    uint i [[thread_position_in_grid]]) {
  out[i] = on ? table.rows[i % 8].x * float(scale) + float(shift) : -1.0f;
}
