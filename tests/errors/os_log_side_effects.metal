// A logging call whose arguments change something cannot be dropped: an error naming it.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 12:5: error: os_log::log_info with an argument that changes a variable or calls a function is not supported
#include <metal_stdlib>
#include <metal_logging>
using namespace metal;

constant os_log logger("mtl2glsl", "tests");

kernel void count(device int* x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    logger.log_info("value %d", x[i]++);
}
