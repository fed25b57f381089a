#include <metal_stdlib>
using namespace metal;
#define TYPE float
#line 1 "samples/specs/typed_axpb.json(signature)"
[[kernel]] void typed_axpb(
    device const float* x [[buffer(0)]],
    device float* y [[buffer(1)]],
    uint id [[thread_position_in_grid]]) {
#line 1 "samples/specs/typed_axpb.json(src)"
// y = 3 x + 1 in the input's own type: TYPE is replaced by the Metal type of x's dtype (template_dtypes).
TYPE v = x[id];
y[id] = v * TYPE(3) + TYPE(1);

#line 5 "samples/specs/typed_axpb.json(signature)"
}
