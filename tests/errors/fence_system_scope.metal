// A fence at system scope (MLX's fence.metal, which waits for a value the CPU writes) has no Vulkan counterpart:
// refused by name at the call, also when the scope is a constant of the program.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 18:13: error: atomic_thread_fence with thread_scope_system is not supported
#include <metal_stdlib>
using namespace metal;

namespace metal {
constexpr constant metal::thread_scope thread_scope_system = static_cast<thread_scope>(3);
}

kernel void fence_wait(volatile coherent(device) device uint* timestamp [[buffer(0)]],
                       constant uint& value [[buffer(1)]]) {
    while (1) {
        atomic_thread_fence(
            mem_flags::mem_device,
            memory_order_seq_cst,
            thread_scope_system);
        if (timestamp[0] >= value)
            break;
    }
}
