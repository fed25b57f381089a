#include <metal_stdlib>
using namespace metal;
typedef half float16_t;
#line 1 "samples/specs/relu.json(header)"

#line 1 "samples/specs/relu.json(signature)"
#define T float
[[kernel]] void custom_kernel_relu_float(
    const device float* x [[buffer(0)]],
    device float* out [[buffer(1)]],
    uint3 thread_position_in_grid [[thread_position_in_grid]]) {
#line 1 "samples/specs/relu.json(source)"
uint i = thread_position_in_grid.x;
out[i] = max(x[i], T(0));

#line 6 "samples/specs/relu.json(signature)"
}
#undef T
