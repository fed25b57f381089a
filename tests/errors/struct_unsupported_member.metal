// A struct whose member has no layout (an unsupported type) is an error naming the type; it used to divide by the
// member's alignment of 0 (SIGFPE, found on PyTorch's kernels).
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+6:25: error: sampler is not supported yet
#include <metal_stdlib>
using namespace metal;

struct S { float x; sampler s; };

kernel void k(device S* s [[buffer(0)]], uint i [[thread_position_in_grid]]) { s[i].x = 1.0f; }
