// A vector comparison is a bool4 in Metal and an int4 to clang: an argument for an int4 parameter would take the
// int4 overload where Metal calls the bool4 one (or refuses the call), so it is an error naming it.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 13:14: error: a vector comparison (bool4 in Metal) passed for the int4 parameter of 'g'
#include <metal_stdlib>
using namespace metal;

int g(int4 m) { return m.x * 100; }
int g(bool4 m) { return m.x ? 1 : 2; }

kernel void k(device int* o [[buffer(0)]], device const float4* f [[buffer(1)]],
              uint i [[thread_position_in_grid]]) {
    o[i] = g(f[i] > 0.5f) + g(bool4(f[i] < 0.25f)) + g(int4(f[i] < 0.75f));
}
