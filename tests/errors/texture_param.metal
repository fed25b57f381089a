// Textures are not in the first issue's scope: an error at the parameter's name, nothing emitted.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+5:55: error: not supported
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

kernel void brightness(texture2d<float, access::read> src [[texture(0)]],
                       device float* out [[buffer(0)]],
                       uint2 gid [[thread_position_in_grid]]) {
    out[gid.y * src.get_width() + gid.x] = dot(src.read(gid).rgb, float3(0.299f, 0.587f, 0.114f));
}
