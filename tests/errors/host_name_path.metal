// An entry point's name names files (-o DIR/ENTRY.comp) and C functions: one that is no identifier is an error at
// the attribute (`../escaped` was written next to DIR and the exit status was 0).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 9:1: error: entry point name '../escaped' is not an identifier
// EXPECT-ERROR: 12:1: error: entry point name 'a b' is not an identifier
#include <metal_stdlib>
using namespace metal;

[[host_name("../escaped")]] kernel void k(device float* o [[buffer(0)]]) { o[0] = 1.0f; }

template <typename T> kernel void t(device T* o [[buffer(0)]]) { o[0] = T(1); }
template [[host_name("a b")]] kernel void t<float>(device float*);
