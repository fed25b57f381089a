#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/histogram.json(header)"

#line 1 "samples/specs/histogram.json(signature)"
[[kernel]] void custom_kernel_histogram(
    const device uint32_t* x [[buffer(0)]],
    device atomic<int32_t>* counts [[buffer(1)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]]) {
#line 1 "samples/specs/histogram.json(source)"
// counts[b] = number of x in bin b (x holds bin numbers); counts starts at init_value 0.
uint i = thread_position_in_grid.x;
atomic_fetch_add_explicit(&counts[x[i]], 1, memory_order_relaxed);

#line 5 "samples/specs/histogram.json(signature)"
}
