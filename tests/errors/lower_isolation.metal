// Failure isolation in lowering: an unsupported construct in a helper stops the kernels that reach it, and a note
// names them (the first six, then a count), as it does for clang's errors; every other kernel is translated.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 22:70: error: atomic_thread_fence with thread_scope_system is not supported
// EXPECT-STDERR: 22:70: note: the error above stops 8 entry points: 'fenced_a', 'fenced_b', 'fenced_c_float', 'fenced_c_half', 'fenced_c_int', 'fenced_c_uint' and 2 more
// EXPECT-ERROR: 53:53: error: recursion is not supported (GLSL has none): 'fact' calls 'fact'
// EXPECT-STDERR: 53:53: note: the error above stops 1 entry point: 'recursive'
// EXPECT-ERROR: 59:9: error: goto is not supported yet
// EXPECT-STDERR: 59:9: note: the error above stops 2 entry points: 'jumping_a', 'jumping_b'
// EXPECT-STDOUT: kernel plain
// EXPECT-STDOUT: kernel unfenced
// EXPECT-NOT-STDOUT: kernel fenced
// EXPECT-NOT-STDOUT: kernel jumping
// EXPECT-NOT-STDOUT: kernel recursive
#include <metal_stdlib>
using namespace metal;
namespace metal { // as MLX's fence.metal declares it
constexpr constant thread_scope thread_scope_system = static_cast<thread_scope>(3);
}

void publish(device atomic_uint* flag) {
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_system);
    atomic_store_explicit(flag, 1u, memory_order_relaxed);
}

kernel void plain(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] += 1.0f; }

kernel void fenced_a(device atomic_uint* flag [[buffer(0)]]) { publish(flag); }

kernel void fenced_b(device atomic_uint* flag [[buffer(0)]], device float* x [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
    x[i] *= 2.0f;
    if (i == 0)
        publish(flag);
}

template <typename T>
kernel void fenced_c(device T* x [[buffer(0)]], device atomic_uint* flag [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
    x[i] = T(1);
    publish(flag);
}
template [[host_name("fenced_c_float")]] kernel void fenced_c<float>(device float*, device atomic_uint*, uint);
template [[host_name("fenced_c_half")]] kernel void fenced_c<half>(device half*, device atomic_uint*, uint);
template [[host_name("fenced_c_int")]] kernel void fenced_c<int>(device int*, device atomic_uint*, uint);
template [[host_name("fenced_c_uint")]] kernel void fenced_c<uint>(device uint*, device atomic_uint*, uint);
template [[host_name("fenced_c_short")]] kernel void fenced_c<short>(device short*, device atomic_uint*, uint);
template [[host_name("fenced_c_char")]] kernel void fenced_c<char>(device char*, device atomic_uint*, uint);

kernel void unfenced(device atomic_uint* flag [[buffer(0)]]) { atomic_store_explicit(flag, 1u, memory_order_relaxed); }

// a second error stops only its own kernel, named in its own note
float fact(float n) { return n <= 1.0f ? 1.0f : n * fact(n - 1.0f); }
kernel void recursive(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = fact(x[i]); }

// an error while a helper's body is converted (before any kernel is lowered) is named for the kernels reaching it
float jumps(float v) {
    if (v < 0.0f)
        goto out;
    v = sqrt(v);
out:
    return v;
}
kernel void jumping_a(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = jumps(x[i]); }
kernel void jumping_b(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = 2.0f * jumps(x[i]); }
