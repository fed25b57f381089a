// An empty name given to #include: a located error, no crash.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+1:10: error: empty filename
#include <>

kernel void k(device float* o [[buffer(0)]]) {
    o[0] = 1.0f;
}
