// A depfile is named after the output file; with the output on stdout it needs -MF FILE (and -MT TARGET).
// ARGS: -MD %s
// EXPECT-EXIT: 2
// EXPECT-STDERR: -MD without -o needs -MF FILE
// EXPECT-NO-STDOUT
kernel void unused(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 0.0f; }
