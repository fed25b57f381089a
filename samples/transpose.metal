#include <metal_stdlib>
using namespace metal;

// Transposes a row-major rows x cols matrix into a cols x rows one.
// gid.x walks the columns of the input, gid.y its rows.
kernel void transpose(device const float* in [[buffer(0)]],
                      device float* out [[buffer(1)]],
                      constant uint& rows [[buffer(2)]],
                      constant uint& cols [[buffer(3)]],
                      uint2 gid [[thread_position_in_grid]]) {
    if (gid.x >= cols || gid.y >= rows) {
        return;
    }
    out[gid.x * rows + gid.y] = in[gid.y * cols + gid.x];
}
