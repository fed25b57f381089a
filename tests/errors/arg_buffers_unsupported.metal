// Argument-buffer forms that stay refused, each named at its location (samples/arg_buffers.metal: what works).
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+10:39: error: pointer member 'TgArgs::p' of a struct in a buffer points to threadgroup memory, which has no address a buffer can hold
// EXPECT-ERROR: @+15:5: error: writing a pointer into a struct in a buffer (a device address there) is not supported yet (the host writes them)
// EXPECT-ERROR: @+17:49: error: pointers stored in buffers are supported only as members of a struct (an argument buffer), not directly in 'ptrs'
// EXPECT-ERROR: @+21:51: error: pointer member 'DeepArgs::pp' of a struct in a buffer: pointers to float* stored in buffers are not supported yet
// EXPECT-ERROR: @+24:19: error: reference 'r' is to an element of a buffer chosen at run time: not supported (use a pointer)
#include <metal_stdlib>
using namespace metal;

struct TgArgs { threadgroup float* p; };

kernel void tg_pointer(device TgArgs& args [[buffer(0)]], uint i [[thread_position_in_grid]]) {
}

struct Args { device float* p; };

kernel void store_pointer(device Args& args [[buffer(0)]], device float* x [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    args.p = x;
}

kernel void bare_pointers(device float* device* ptrs [[buffer(0)]], uint i [[thread_position_in_grid]]) {
}

struct DeepArgs { device float* device* pp; };

kernel void pointer_to_pointer(constant DeepArgs& args [[buffer(0)]], uint i [[thread_position_in_grid]]) {
}

kernel void local_reference(device Args& args [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    device float& r = args.p[i];
    r = 1.0f;
}
