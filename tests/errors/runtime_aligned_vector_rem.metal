// A vector cast at a run-time offset into a buffer is read and written through helpers (whole where aligned at run
// time, else component by component), and `x op= y` through one that takes the index once. C's remainder on signed
// integers needs mtl_rem, which takes scalars: `%=` there is refused by name, never printed as GLSL's `%` (whose
// result for negative operands is undefined).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:5: error: %= on int4, stored whole only where aligned at run time, is not supported yet (write x = x % y)
#include <metal_stdlib>
using namespace metal;

kernel void rows_rem(device int* x [[buffer(0)]], constant uint& n [[buffer(1)]], uint row [[thread_position_in_grid]]) {
    device int4* r = (device int4*)(x + row * n);
    r[0] %= 3;
}
