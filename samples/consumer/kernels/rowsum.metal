// rowsum.metal: sums[r] = sum of row r of a rows x cols matrix, counts[r] = its elements above a threshold;
// one thread per row. The sizes come as a struct (a `constant T&` the generated C takes as bytes). row_dot below.
#include <metal_stdlib>
using namespace metal;

struct RowsumParams {
    uint rows;
    uint cols;
    float threshold;
};

kernel void row_sums(device const float *m [[buffer(0)]],
                     device float *sums [[buffer(1)]],
                     device uint *counts [[buffer(2)]],
                     constant RowsumParams &p [[buffer(3)]],
                     uint r [[thread_position_in_grid]])
{
    float s = 0.0f;
    uint above = 0;
    for (uint c = 0; c < p.cols; c++) {
        float v = m[r * p.cols + c];
        s += v;
        above += v > p.threshold ? 1u : 0u;
    }
    sums[r] = s;
    counts[r] = above;
}

// A second entry point: dots[r] = row r . w. The weights are too large for push constants, so every `constant T&`
// of this kernel becomes a small storage buffer, which the generated launch function fills from its arguments.
struct Weights {
    float w[64];
};

kernel void row_dot(device const float *m [[buffer(0)]],
                    device float *dots [[buffer(1)]],
                    constant Weights &weights [[buffer(2)]],
                    constant uint &cols [[buffer(3)]],
                    uint r [[thread_position_in_grid]])
{
    float s = 0.0f;
    for (uint c = 0; c < cols; c++)
        s += m[r * cols + c] * weights.w[c];
    dots[r] = s;
}
