#include <metal_stdlib>
using namespace metal;

// Contended atomics for bench/atomics.sh: every thread updates one of 64 words.
kernel void float_add(device const float* x [[buffer(0)]], device atomic<float>* s [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    atomic_fetch_add_explicit(&s[i % 64u], x[i], memory_order_relaxed);
}

kernel void float_max(device const float* x [[buffer(0)]], device atomic<float>* s [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    atomic_fetch_max_explicit(&s[i % 64u], x[i], memory_order_relaxed);
}

kernel void uint_max(device const uint* x [[buffer(0)]], device atomic_uint* s [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
    atomic_fetch_max_explicit(&s[i % 64u], x[i], memory_order_relaxed);
}
