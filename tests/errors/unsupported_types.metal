// Types not translated yet are named where they are used. (bool in buffers is translated: samples/packed.metal;
// constant bool& too: samples/mlx_params.metal.)
// EXPECT-EXIT: 1
// EXPECT-STDOUT: kernel flag_param
// EXPECT-NOT-STDOUT: kernel flag_or
// EXPECT-NOT-STDOUT: kernel lanes_init
// EXPECT-ERROR: 19:5: error: assignment to a bool array or with '|=' in memory is not supported yet
// EXPECT-ERROR: 25:16: error: initializing a bool array member is not supported yet
#include <metal_stdlib>
using namespace metal;

kernel void flag_param(constant bool& on [[buffer(0)]], device float* y [[buffer(1)]],
                       uint i [[thread_position_in_grid]]) {
    y[i] = on ? 1.0f : 0.0f;
}

kernel void flag_or(device bool* m [[buffer(0)]], device const float* x [[buffer(1)]],
                    uint i [[thread_position_in_grid]]) {
    m[i] |= x[i] > 0.0f;
}

struct Lanes { bool on[4]; float w; };

kernel void lanes_init(device Lanes* l [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    Lanes z = {{true, false, true, false}, 1.0f};
    l[i] = z;
}
