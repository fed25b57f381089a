#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/threadgroup_sizes.json(header)"

#line 1 "samples/specs/threadgroup_sizes.json(signature)"
[[kernel]] void custom_kernel_threadgroup_sizes(
    device uint32_t* out [[buffer(0)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]],
    uint3 threads_per_grid [[threads_per_grid]],
    uint3 threads_per_threadgroup [[threads_per_threadgroup]],
    uint3 dispatch_threads_per_threadgroup [[dispatch_threads_per_threadgroup]]) {
#line 1 "samples/specs/threadgroup_sizes.json(source)"
// What each thread sees of its threadgroup: MLX clamps the threadgroup to the grid, so a threadgroup asked
// larger than the grid is the grid's size in that dimension (dispatch_threads_per_threadgroup included).
uint3 p = thread_position_in_grid;
uint i = (p.z * threads_per_grid.y + p.y) * threads_per_grid.x + p.x;
out[4 * i + 0] = dispatch_threads_per_threadgroup.x;
out[4 * i + 1] = dispatch_threads_per_threadgroup.y;
out[4 * i + 2] = dispatch_threads_per_threadgroup.z;
out[4 * i + 3] = threads_per_threadgroup.x * threads_per_threadgroup.y * threads_per_threadgroup.z;

#line 7 "samples/specs/threadgroup_sizes.json(signature)"
}
