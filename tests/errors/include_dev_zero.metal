// Only regular files are read: `#include "/dev/zero"` is an error at the #include (it read forever).
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+1:1: error: cannot include '/dev/zero': is not a regular file
#include "/dev/zero"

kernel void k(device float* o [[buffer(0)]]) {
    o[0] = 1.0f;
}
