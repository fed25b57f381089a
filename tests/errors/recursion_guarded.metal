// Recursion whose guards do not stop it stays an error: `down` calls `up` only when x < 10, and `up` calls back when
// x < 20, which x < 10 makes true (so the copy of `up` for x < 10 still calls `down`); `spin` calls itself under a
// guard on a variable it changes. samples/pytorch_forms.metal `gamma_pair` is the recursion the guards stop.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 14:16: error: recursion is not supported (GLSL has none): 'up' calls 'down'
// EXPECT-ERROR: 27:16: error: recursion is not supported (GLSL has none): 'spin' calls 'spin'
#include <metal_stdlib>
using namespace metal;

float down(const float x);

float up(const float x) {
    if (x < 20.0f)
        return down(x) + 1.0f;
    return x;
}

float down(const float x) {
    if (x < 10.0f)
        return up(x) * 0.5f;
    return -x;
}

float spin(float x) {
    x = x - 1.0f;
    if (x > 0.0f)
        return spin(x) + 1.0f;
    return 0.0f;
}

kernel void cycles(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = down(float(i)) + spin(float(i));
}
