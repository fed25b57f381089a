// An option mtl2glsl does not know is a usage error.
// ARGS: --frobnicate %s
// EXPECT-EXIT: 2
// EXPECT-STDERR: --frobnicate
// EXPECT-NO-STDOUT
kernel void unused(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 0.0f; }
