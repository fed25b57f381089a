// --emit takes glsl, spirv or reflect.
// ARGS: --emit=hlsl %s
// EXPECT-EXIT: 2
// EXPECT-STDERR: hlsl
// EXPECT-NO-STDOUT
kernel void unused(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 0.0f; }
