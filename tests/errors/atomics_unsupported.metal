// Atomic forms the translator refuses, each named at its location.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+7:5: error: atomic_fetch_min_explicit on atomic<float> is not supported (Vulkan's float atomics add and exchange)
// EXPECT-ERROR: @+7:42: error: atomic_fetch_add_explicit: only memory_order_relaxed is supported (Metal's atomics are relaxed)
#include <metal_stdlib>
using namespace metal;

kernel void bad_atomics(device atomic<float>* f [[buffer(0)]], device atomic_uint* u [[buffer(1)]],
                        uint i [[thread_position_in_grid]]) {
    atomic_fetch_min_explicit(f, 1.0f, memory_order_relaxed);
    atomic_fetch_add_explicit(&u[i], 1u, memory_order_seq_cst);
}
