// --emit=c with one entry that does not translate: exit 1 with its diagnostic, and no C is generated at all
// (a half API would link and fail later), so the unwritable -o is never opened.
// ARGS: --emit=c -o /nonexistent-mtl2glsl-dir/out.c %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+13:9: error: pointer 'p' points into 'x' and into 'z'
#include <metal_stdlib>
using namespace metal;

kernel void good(device const float* x [[buffer(0)]], device float* y [[buffer(1)]],
                 uint i [[thread_position_in_grid]]) {
    y[i] = x[i] + 1.0f;
}

kernel void bad(device float* y [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup float x[8], z[8];
    threadgroup float* p = x;
    if (i > 4)
        p = z;
    y[i] = p[i];
}
