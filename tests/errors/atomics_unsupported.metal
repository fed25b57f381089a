// Atomic forms the translator refuses, each named at its location.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+16:5: error: atomic_fetch_and_explicit on atomic<float> is not supported (Metal has it for atomic_int and atomic_uint)
// EXPECT-ERROR: @+16:31: error: atomic_fetch_min_explicit on atomic<float>: only on a threadgroup variable or an element of a kernel's device buffer of atomic<float> (not in a struct or through a pointer variable)
// EXPECT-ERROR: @+16:27: error: atomic_bool is not supported (Metal's bool is one byte; Vulkan's atomics take 32- and 64-bit words)
// EXPECT-ERROR: @+16:5: error: atomic_fetch_add_explicit on atomic_ulong is not supported (Metal 3.1 has atomic_min_explicit and atomic_max_explicit for it)
// EXPECT-ERROR: @+16:5: error: atomic_min_explicit is for atomic_ulong; atomic_int has atomic_fetch_min_explicit
// EXPECT-ERROR: @+16:42: error: atomic_load_explicit cannot take memory_order_release
// EXPECT-ERROR: @+16:48: error: atomic_thread_fence with memory_order_relaxed orders nothing; remove it
// EXPECT-ERROR: @+16:36: error: atomic_thread_fence: the flags must be mem_flags::mem_device and/or mem_flags::mem_threadgroup
// EXPECT-ERROR: @+16:40: error: atomic_fetch_max_explicit on atomic<float>: only memory_order_relaxed is supported
#include <metal_stdlib>
using namespace metal;
struct Acc { atomic<float> m; uint n; };
kernel void bad_atomics(device atomic<float>* f [[buffer(0)]], device atomic_uint* u [[buffer(1)]],
                        device atomic_bool* b [[buffer(2)]], device atomic_ulong* l [[buffer(3)]],
                        device atomic_int* k [[buffer(4)]], device Acc* s [[buffer(5)]],
                        uint i [[thread_position_in_grid]]) {
    atomic_fetch_and_explicit(f, 1.0f, memory_order_relaxed);
    atomic_fetch_min_explicit(&s[i].m, 1.0f, memory_order_relaxed);
    atomic_store_explicit(b, true, memory_order_relaxed);
    atomic_fetch_add_explicit(l, 1ul, memory_order_relaxed);
    atomic_min_explicit(k, 1, memory_order_relaxed);
    uint v = atomic_load_explicit(&u[i], memory_order_release);
    atomic_thread_fence(mem_flags::mem_device, memory_order_relaxed, thread_scope_device);
    atomic_thread_fence(mem_flags::mem_none, memory_order_seq_cst, thread_scope_device);
    atomic_fetch_max_explicit(f, 2.0f, memory_order_seq_cst);
}
