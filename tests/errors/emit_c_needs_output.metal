// --emit=c writes FILE.c and FILE.h, so it needs -o FILE.c.
// ARGS: --emit=c %s
// EXPECT-EXIT: 2
// EXPECT-STDERR: --emit=c needs -o FILE.c
// EXPECT-NO-STDOUT
kernel void unused(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 0.0f; }
