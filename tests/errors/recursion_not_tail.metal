// A function that calls itself last with new values of by-value parameters becomes a loop (docs/translator.md);
// any other self-call is still recursion: one followed by more work, and one that moves a pointer parameter.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:9: error: recursion is not supported
// EXPECT-ERROR: 20:9: error: recursion is not supported
#include <metal_stdlib>
using namespace metal;

static void count_down(device int* out, int n) {
    if (n > 0) {
        out[n] = n;
        count_down(out, n - 1);
        out[0] += 1;
    }
}

static void walk(device int* p, int n) {
    if (n > 0) {
        p[0] = n;
        walk(p + 1, n - 1);
    }
}

kernel void not_tail(device int* out [[buffer(0)]], device int* out2 [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
    count_down(out, int(i % 4u));
    walk(out2, 3);
}
