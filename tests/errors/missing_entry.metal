// --entry names an entry point the file does not have.
// ARGS: --entry does_not_exist %s
// EXPECT-EXIT: 1
// EXPECT-STDERR: does_not_exist
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

kernel void present(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = 1.0f;
}
