// Shader logging (MSL 3.2 os_log, MLX's logger.log_debug) changes no result: the call is dropped with a warning
// naming it at each call site (once, not once per template instance), and the kernel is written (exit 0).
// ARGS: %s
// EXPECT-EXIT: 0
// EXPECT-STDERR: os_log_dropped.metal:18:9: warning: os_log::log_debug dropped: shader logging is not translated
// EXPECT-STDERR: os_log_dropped.metal:20:5: warning: os_log::log_error dropped
// EXPECT-STDOUT: void main()
#include <metal_stdlib>
#include <metal_logging>
using namespace metal;

constant os_log logger("mtl2glsl", "tests");

template <typename T>
kernel void scale(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    if (x[i] < T(0))
        logger.log_debug("negative %d at %u", int(x[i]), i);
    x[i] *= T(2);
    logger.log_error("done");
}

template [[host_name("scale_f")]] kernel void scale<float>(device float*, uint);
template [[host_name("scale_i")]] kernel void scale<int>(device int*, uint);
