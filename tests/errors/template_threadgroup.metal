// A threadgroup array inside a kernel template: clang (C++ for OpenCL) allows `threadgroup` locals only in
// kernel functions, and a template cannot be one there; reported at the declaration.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+6:19: error: threadgroup variables in helper functions and kernel templates are not supported yet
#include <metal_stdlib>
using namespace metal;

template <typename T>
[[kernel]] void rotate(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup T tmp[32];
    tmp[i % 32] = x[i];
    x[i] = tmp[(i + 1) % 32];
}
template [[host_name("rotate_float")]] [[kernel]] decltype(rotate<float>) rotate<float>;
