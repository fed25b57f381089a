#include <metal_stdlib>
using namespace metal;
#line 1 "samples/specs/vector_add.json(signature)"
[[kernel]] void vector_add(
    device const float* a [[buffer(0)]],
    device const float* b [[buffer(1)]],
    device float* c [[buffer(2)]],
    uint id [[thread_position_in_grid]]) {
#line 1 "samples/specs/vector_add.json(src)"
c[id] = a[id] + b[id];
#line 6 "samples/specs/vector_add.json(signature)"
}
