// Compound assignments that GLSL needs written as `x = f(x op y)` print their left side twice, so an atomic
// operation in it (an index taken from a counter) would run twice: refused by name at each place, never
// translated with the counter moved twice (it was, silently). A call of a helper that only computes (c10's
// ref_at_offs) may be repeated: samples/pytorch_forms.metal `scaled_accumulate`.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 15:5: error: %= on a signed integer lvalue with side effects is not supported yet
// EXPECT-ERROR: 16:5: error: bfloat += on an lvalue with side effects is not supported yet
// EXPECT-ERROR: 17:5: error: bfloat += on an lvalue with side effects is not supported yet
// EXPECT-ERROR: 18:5: error: compound assignment with a converted operand to an expression with side effects is not supported yet
#include <metal_stdlib>
using namespace metal;

kernel void counted(device int* out [[buffer(0)]], device atomic_int* cnt [[buffer(1)]], device bfloat* b [[buffer(2)]],
                    device half* h [[buffer(3)]], uint i [[thread_position_in_grid]]) {
    out[atomic_fetch_add_explicit(cnt, 1, memory_order_relaxed)] %= 3;
    b[atomic_fetch_add_explicit(cnt, 1, memory_order_relaxed)] += 1.0f;
    b[atomic_fetch_add_explicit(cnt, 1, memory_order_relaxed)]++;
    h[atomic_fetch_add_explicit(cnt, 1, memory_order_relaxed)] *= 2.0f;
}
