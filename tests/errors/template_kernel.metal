// A kernel template is an entry point only through an explicit instantiation with [[host_name]]: one without
// a host name is one error at the instantiation; the file's other entry points are still written (exit 1).
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+9:1: error: explicit instantiation of a kernel template needs [[host_name("name")]]
// EXPECT-STDOUT: #version 450
#include <metal_stdlib>
using namespace metal;

kernel void ok(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = 1.0f; }

template <typename T> kernel void zero(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = T(0); }
template [[host_name("zero_float")]] [[kernel]] decltype(zero<float>) zero<float>;
template [[kernel]] decltype(zero<int>) zero<int>;
