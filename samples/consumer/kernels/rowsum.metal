// rowsum.metal: sums[r] = sum of row r of a rows x cols matrix, one thread per row; counts[r] = its elements > 0.
#include <metal_stdlib>
using namespace metal;

kernel void row_sums(device const float *m [[buffer(0)]],
                     device float *sums [[buffer(1)]],
                     device uint *counts [[buffer(2)]],
                     constant uint &rows [[buffer(3)]],
                     constant uint &cols [[buffer(4)]],
                     uint r [[thread_position_in_grid]])
{
    float s = 0.0f;
    uint positive = 0;
    for (uint c = 0; c < cols; c++) {
        float v = m[r * cols + c];
        s += v;
        positive += v > 0.0f ? 1u : 0u;
    }
    sums[r] = s;
    counts[r] = positive;
}
