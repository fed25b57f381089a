// Threadgroup arrays in a kernel template's body are the kernel's (samples/reduce_templates.metal); in a helper
// template they are an error at the declaration, and the kernel calling it is not written.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+5:19: error: threadgroup variables outside a kernel's body are not supported yet
#include <metal_stdlib>
using namespace metal;

template <typename T> T stage(T v, uint i) {
    threadgroup T tmp[32];
    tmp[i % 32] = v;
    return tmp[(i + 1) % 32];
}

template <typename T>
[[kernel]] void rotate(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    x[i] = stage(x[i], i);
}
template [[host_name("rotate_float")]] [[kernel]] decltype(rotate<float>) rotate<float>;
