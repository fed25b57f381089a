// A union is stored as its first member (GLSL has no unions): reading it as another member, or a union whose
// first member does not hold all of it, is an error naming it, never a struct with the members one after another.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 13:40: error: reading union member 'u' (a union is stored as its first member, 'f') is not supported yet
// EXPECT-ERROR: 15:33: error: an anonymous union whose first member is not its largest is not supported yet
#include <metal_stdlib>
using namespace metal;

union Bits { float f; uint u; };
struct Mixed { uint tag; union { half h; float x; }; };

kernel void pun(device uint* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    Bits b; b.f = float(i); out[i] = b.u;
}
kernel void mixed(device Mixed* m [[buffer(0)]], uint i [[thread_position_in_grid]]) { m[i].tag = 1; }
