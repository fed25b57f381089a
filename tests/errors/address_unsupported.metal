// A pointer's address as an integer: only its remainder modulo 1, 2 or 4 is known (c10's atomic_add_helper,
// samples/torch_kernels.metal); anything else is refused where it is used.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:10: error: a pointer's address as an integer is only supported as its remainder modulo 1, 2 or 4
// EXPECT-ERROR: 13:11: error: a pointer's address as an integer is only supported as its remainder modulo 1, 2 or 4
// EXPECT-ERROR: 19:10: error: the address of a pointer into 'tile' is not supported (only pointers into one buffer)
#include <metal_stdlib>
using namespace metal;

kernel void whole_address(device const float* p [[buffer(0)]], device ulong* o [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  auto addr = reinterpret_cast<ulong>(p + i);
  o[i] = addr;
  o[i] += reinterpret_cast<ulong>(p) % 8;
}

kernel void threadgroup_address(device ulong* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  threadgroup float tile[16];
  threadgroup float* t = tile + i % 16;
  o[i] = reinterpret_cast<ulong>(t) % 4;
}
