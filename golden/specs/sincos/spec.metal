#include <metal_stdlib>
using namespace metal;
#line 1 "samples/specs/sincos.json(signature)"
[[kernel]] void sincos(
    device const float* x [[buffer(0)]],
    device float* s [[buffer(1)]],
    device float* c [[buffer(2)]],
    uint id [[thread_position_in_grid]]) {
#line 1 "samples/specs/sincos.json(src)"
s[id] = sin(x[id]);
c[id] = cos(x[id]);

#line 6 "samples/specs/sincos.json(signature)"
}
