#include <metal_array>
#include <metal_stdlib>
using namespace metal;

// Forms of PyTorch's mps kernels (aten/src/ATen/native/mps/kernels), written here.

// SoftMaxKernel.metal's vector loads: a packed_float4 (16 bytes, aligned 4) or packed_half4 (8 bytes, aligned 2)
// through a pointer moved by any number of scalars, so the vector need not start at a multiple of its size.
static inline float4 load_vec4(device const float* p) {
  return *reinterpret_cast<device const packed_float4*>(p);
}
static inline float4 load_vec4(device const half* p) {
  return float4(*reinterpret_cast<device const packed_half4*>(p));
}
static inline void store_vec4(device float* p, float4 v) {
  *reinterpret_cast<device packed_float4*>(p) = v;
}
static inline void store_vec4(device half* p, float4 v) {
  *reinterpret_cast<device packed_half4*>(p) = half4(v);
}

// Row i of four values at input[offs.x + 4i], written at output[offs.y + 4i] as 2x + (0, 1, 2, 3); through
// packed pointer variables, row i of aux (at aux[offs.x + 4i]) gets v with aux's first value added to its first lane.
template <typename T>
kernel void vec4_rows(device const T* input [[buffer(0)]],
                      device T* output [[buffer(1)]],
                      constant uint2& offs [[buffer(2)]],
                      device float* aux [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
  device const T* x = input + offs.x;
  device T* out = output + offs.y;
  float4 v = load_vec4(x + i * 4);
  store_vec4(out + i * 4, v * 2.0f + float4(0, 1, 2, 3));
  device const packed_float4* p = reinterpret_cast<device const packed_float4*>(aux + offs.x + i * 4);
  device packed_float4* q = reinterpret_cast<device packed_float4*>(aux + offs.x) + 0;
  float4 w = float4(v.x, v.yzw);
  w.x += p[0].x;
  q += i;
  q[0] = w;
}

template [[host_name("vec4_rows_float")]] kernel void vec4_rows<float>(device const float*, device float*, constant uint2&, device float*, uint);
template [[host_name("vec4_rows_half")]] kernel void vec4_rows<half>(device const half*, device half*, constant uint2&, device float*, uint);

// The same for a packed_float3 (12 bytes, aligned 4) at any 4-byte offset: read member by member.
kernel void vec3_shifted(device const float* raw [[buffer(0)]],
                         device float* y [[buffer(1)]],
                         constant uint& off [[buffer(2)]],
                         uint i [[thread_position_in_grid]]) {
  device const packed_float3* v = (device const packed_float3*)(raw + off);
  y[i] = v[i].x - v[i].z + dot(float3(v[i]), float3(1, 2, 4));
}

// LinearAlgebra.metal's tiled matmul: the kernel's threadgroup tiles passed to a helper as
// `threadgroup T A_tile[TILE][TILE]` parameters (pointers to rows, `T (*)[TILE]`), and a row pointer moved.
constant uint TILE_DIM = 4;

template <typename T>
inline float matmul_inner(device const T* a, device const T* b, constant uint3& sizes,
                          threadgroup T A_tile[TILE_DIM][TILE_DIM],
                          threadgroup T B_tile[TILE_DIM][TILE_DIM],
                          uint2 tid, uint2 pos) {
  float sum = 0;
  uint tiles = (sizes.y + TILE_DIM - 1) / TILE_DIM;
  for (uint t = 0; t < tiles; t++) {
    uint col = t * TILE_DIM + tid.x, row = t * TILE_DIM + tid.y;
    A_tile[tid.y][tid.x] = pos.y < sizes.x && col < sizes.y ? a[pos.y * sizes.y + col] : T(0);
    B_tile[tid.y][tid.x] = row < sizes.y && pos.x < sizes.z ? b[row * sizes.z + pos.x] : T(0);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    threadgroup T (*brows)[TILE_DIM] = B_tile + 1;
    for (uint k = 0; k < TILE_DIM; k++)
      sum += float(A_tile[tid.y][k]) * float(k ? brows[k - 1][tid.x] : B_tile[0][tid.x]);
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  return sum;
}

template <typename T>
kernel void tiled_matmul(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]],
                         device T* c [[buffer(2)]], constant uint3& sizes [[buffer(3)]],
                         uint2 tid [[thread_position_in_threadgroup]],
                         uint2 pos [[thread_position_in_grid]]) {
  threadgroup T A_tile[TILE_DIM][TILE_DIM];
  threadgroup T B_tile[TILE_DIM][TILE_DIM];
  float sum = matmul_inner(a, b, sizes, A_tile, B_tile, tid, pos);
  if (pos.y < sizes.x && pos.x < sizes.z)
    c[pos.y * sizes.z + pos.x] = T(sum);
}

template [[host_name("tiled_matmul_float")]] kernel void tiled_matmul<float>(device const float*, device const float*, device float*, constant uint3&, uint2, uint2);
template [[host_name("tiled_matmul_half")]] kernel void tiled_matmul<half>(device const half*, device const half*, device half*, constant uint3&, uint2, uint2);

// LinearAlgebra.metal's addmm: a `constant array<T, 4>&` read as the `constant array<T, 3>&` a helper takes,
// through reinterpret_cast (its first elements). (A kernel template, as PyTorch writes it: clang's OpenCL rules
// refuse a metal::array parameter of a kernel that is not one.)
template <typename T>
inline uint2 offsets_of(constant array<uint2, 2>& s, uint2 p) {
  return uint2(s[0].x * p.x + s[0].y * p.y, s[1].x * p.x + s[1].y * p.y);
}

template <typename T>
kernel void strided_pairs(device const T* in [[buffer(0)]],
                          device T* out [[buffer(1)]],
                          constant array<uint2, 3>& strides [[buffer(2)]],
                          uint2 pos [[thread_position_in_grid]]) {
  uint2 o = offsets_of<T>(reinterpret_cast<constant array<uint2, 2>&>(strides), pos);
  out[pos.y * strides[2].x + pos.x * strides[2].y] = in[o.x] + T(2) * in[o.y];
}

template [[host_name("strided_pairs_float")]] kernel void strided_pairs<float>(device const float*, device float*, constant array<uint2, 3>&, uint2);

// c10/metal/atomic.h's atomic_add_helper: a half, short or char added into a buffer of them through the 32-bit
// word that holds it, by compare-and-swap on a local union of the word and its parts (`auto old =
// atomic_load_explicit(...)` is a uint, as in Metal), after fixing up a pointer that is not 4-aligned (its
// address modulo 4: the buffer starts at a 4-byte multiple, so there is nothing to fix here).
template <typename T>
static inline void atomic_add_small(device atomic<uint>* data, long offset, T value) {
  auto addr = reinterpret_cast<ulong>(data);
  auto misalign = (addr % alignof(atomic<uint>)) / sizeof(T);
  data = reinterpret_cast<device atomic<uint>*>(reinterpret_cast<device char*>(data) - misalign * sizeof(T));
  offset += misalign;
  constexpr auto elem_per_enum = sizeof(uint) / sizeof(T);
  auto ptr = data + (offset / elem_per_enum);
  auto old = atomic_load_explicit(ptr, memory_order_relaxed);
  union {
    uint i;
    T t[elem_per_enum];
  } val;
  do {
    val.i = old;
    val.t[offset & (elem_per_enum - 1)] += value;
  } while (!atomic_compare_exchange_weak_explicit(ptr, &old, val.i, memory_order_relaxed, memory_order_relaxed));
}

template <typename T>
kernel void index_add_small(device T* out [[buffer(0)]],
                            device const T* src [[buffer(1)]],
                            device const int* index [[buffer(2)]],
                            uint i [[thread_position_in_grid]]) {
  atomic_add_small(reinterpret_cast<device atomic<uint>*>(out), index[i], src[i]);
}

template [[host_name("index_add_small_half")]] kernel void index_add_small<half>(device half*, device const half*, device const int*, uint);
template [[host_name("index_add_small_short")]] kernel void index_add_small<short>(device short*, device const short*, device const int*, uint);
template [[host_name("index_add_small_char")]] kernel void index_add_small<char>(device char*, device const char*, device const int*, uint);

// The value an atomic function returns has the atomic's type: `auto old` of an atomic<float> is a float.
kernel void fetch_add_old(device atomic<float>* acc [[buffer(0)]],
                          device float* o [[buffer(1)]],
                          uint i [[thread_position_in_grid]]) {
  auto old = atomic_fetch_add_explicit(acc + i, 0.5f, memory_order_relaxed);
  o[i] = old * 2;
}

// LossCTC.metal's gradient: a float buffer's element made an atomic by a cast of its address.
kernel void scatter_add_cast(device float* grad [[buffer(0)]],
                             device const int* index [[buffer(1)]],
                             device const float* value [[buffer(2)]],
                             uint i [[thread_position_in_grid]]) {
  atomic_fetch_add_explicit((device atomic_float*)&grad[index[i] * 2 + 1], -value[i], memory_order_relaxed);
}

// LinearAlgebra.metal's linalg_qr_householder: a threadgroup scalar in a kernel template (`threadgroup opmath_t
// tau_shared;`), written by one thread and read by all after a barrier.
template <typename T>
kernel void group_scale(device T* x [[buffer(0)]],
                        uint tid [[thread_position_in_threadgroup]],
                        uint tg [[threadgroup_position_in_grid]],
                        uint n [[threads_per_threadgroup]]) {
  threadgroup float tau_shared;
  threadgroup float2 range, spare;
  if (tid == 0) {
    tau_shared = float(x[tg * n]) + 0.5f;
    range = float2(tg, tg + 1);
    spare = range * 2;
  }
  threadgroup_barrier(mem_flags::mem_threadgroup);
  x[tg * n + tid] = T(float(x[tg * n + tid]) * tau_shared + range.y + spare.x);
}

template [[host_name("group_scale_float")]] kernel void group_scale<float>(device float*, uint, uint, uint);
