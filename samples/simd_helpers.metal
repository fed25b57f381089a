#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8

// Helper functions that call SIMD-group functions, called with the SIMD-group partly inactive: after an early
// return inside the helper, under a branch, and in a loop whose trip count differs between lanes.

// The sum over the lanes that take part; lanes with take == false leave before the reduction.
static float masked_total(float v, bool take) {
    if (!take)
        return 0.0f;
    return simd_sum(v);
}

// How many active lanes see a positive value.
static uint positive_lanes(float v) {
    return popcount(uint(simd_ballot(v > 0.0f)));
}

// Accumulates into an out-parameter: the largest value of the active lanes, plus one.
static void add_max(thread float& acc, float v) {
    acc += simd_max(v) + 1.0f;
}

kernel void simd_helpers(device const float* x [[buffer(0)]],
                         device float* out [[buffer(1)]],
                         uint gid [[thread_position_in_grid]],
                         uint lane [[thread_index_in_simdgroup]])
{
    float v = x[gid];
    float a = masked_total(v, lane % 2 == 0);
    float b = -1.0f;
    if (lane < 20)
        b = masked_total(v, true);
    uint c = 0;
    for (uint k = 0; k < lane % 4; k++)
        c += positive_lanes(v - float(k));
    float d = 0.0f;
    if (lane >= 8)
        add_max(d, v);
    out[gid * 4 + 0] = a;
    out[gid * 4 + 1] = b;
    out[gid * 4 + 2] = float(c);
    out[gid * 4 + 3] = d;
}

// Reduces the value P points to in place: a helper printed once per variable it is called on (ptr.c), each copy
// computing the sum into a variable of its own (widths below 32: uniform control flow, emit_glsl.c).
static void reduce_in_place(thread float* p) {
    *p = simd_sum(*p);
}

kernel void simd_helper_pointers(device const float* x [[buffer(0)]],
                                 device float* out [[buffer(1)]],
                                 uint gid [[thread_position_in_grid]])
{
    float a = x[gid];
    float b = 2.0f * x[gid] + 1.0f;
    reduce_in_place(&a);
    reduce_in_place(&b);
    out[gid * 2 + 0] = a;
    out[gid * 2 + 1] = b;
}
