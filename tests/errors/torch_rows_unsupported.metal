// Forms next to those samples/torch_kernels.metal translates, which stay refused by name: a pointer into one row
// of a multi-dimensional threadgroup array (the whole array passed to a helper works), and reinterpret_cast of an
// array reference that may be written through (a const one reads the first elements).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:54: error: a pointer into a row of the multi-dimensional threadgroup array 'A' is not supported yet
// EXPECT-ERROR: 25:10: error: a pointer into a row of the multi-dimensional threadgroup array 'A' is not supported yet
// EXPECT-ERROR: 31:20: error: reinterpret_cast to __private array<float, 2> is not supported yet
#include <metal_array>
#include <metal_stdlib>
using namespace metal;

inline float rowsum(threadgroup float* row) { return row[0] + row[1]; }

kernel void row_pointers(device float* o [[buffer(0)]], uint2 tid [[thread_position_in_threadgroup]]) {
  threadgroup float A[4][4];
  A[tid.y][tid.x] = 1.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  o[1] = rowsum(A[tid.y]);
}

kernel void row_pointer(device float* o [[buffer(0)]], uint2 tid [[thread_position_in_threadgroup]]) {
  threadgroup float A[4][4];
  A[tid.y][tid.x] = 1.0f;
  threadgroup float* p = A[1];
  o[0] = p[2];
}

template <typename T>
kernel void prefix(device T* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  array<T, 3> a = {T(1), T(2), T(3)};
  thread auto& b = reinterpret_cast<thread array<T, 2>&>(a);
  b[0] = T(5);
  o[i] = a[0];
}
template [[host_name("prefix_float")]] kernel void prefix<float>(device float*, uint);
