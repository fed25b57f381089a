// Functions returning references that are not accessors (`return PLACE;` of their object or reference arguments),
// and reference locals bound to anything but a place, are refused by name: a write through them is never lost.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 16:15: error: helper functions returning references are not supported yet ('pick'
// EXPECT-ERROR: 13:19: error: helper functions returning references are not supported yet ('at'
// EXPECT-ERROR: 28:10: error: an argument of 'at', which returns a reference, that has side effects
// EXPECT-ERROR: 30:19: error: local thread references are not supported yet ('q')
#include <metal_stdlib>
using namespace metal;

struct Pair {
    float a, b;
    thread float& at(int i) thread { return i == 0 ? a : b; }  // (the compiler sees it once)
};

thread float& pick(thread float& x, thread float& y, bool first) { return first ? x : y; }

struct Arr {
    float v[4];
    thread float& at(int i) thread { return v[i]; }
};

kernel void refs_bad(device float* out [[buffer(0)]], uint id [[thread_position_in_grid]]) {
    float x = 1, y = 2;
    pick(x, y, id > 3) = 5;
    Arr s;
    int k = 0;
    s.at(k++) = 3;
    Pair p{1, 2};
    thread float& q = p.at(int(id & 1));
    q = 4;
    out[id] = x + y + s.v[0] + p.a;
}
