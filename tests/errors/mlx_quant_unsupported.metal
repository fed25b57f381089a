// The forms of MLX's quantized and fft kernels that stay refused, each named at its location.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+13:5: error: pointer member 's.p' points into 'v' (thread memory): a pointer kept in a struct must point into one buffer or threadgroup array
// EXPECT-ERROR: @+23:13: error: 'move_by' takes a reference to the pointer 'p', here a pointer into a buffer chosen at run time: not supported
// EXPECT-ERROR: @+23:25: error: '__builtin_popcount' of values known only at run time is not supported yet
#include <metal_stdlib>
using namespace metal;

struct Span {
    thread float* p;
};

kernel void thread_member(device float* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float v[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    Span s;
    s.p = v;
    y[i] = s.p[i % 4];
}

void move_by(const device float*& p, int k) {
    p += k;
}

kernel void chosen_by_reference(const device float* a [[buffer(0)]], const device float* b [[buffer(1)]],
                                device float* y [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    const device float* p = i > 3 ? a : b;
    move_by(p, 1);
    y[i] = p[0] + float(__builtin_popcount(i));
}
