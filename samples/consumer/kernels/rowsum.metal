// rowsum.metal: sums[r] = sum of row r of a rows x cols matrix, counts[r] = its elements above a threshold;
// one thread per row. The sizes come as a struct (a `constant T&` the generated C takes as bytes). row_dot and
// row_max below.
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

// A third entry point, one threadgroup per row (dispatchThreadgroups): maxes[r] = the largest element of row r,
// reduced through threadgroup memory whose length the host sets (the generated launch takes partial_bytes).
kernel void row_max(device const float *m [[buffer(0)]],
                    device float *maxes [[buffer(1)]],
                    constant uint &cols [[buffer(2)]],
                    threadgroup float *partial [[threadgroup(0)]],
                    uint row [[threadgroup_position_in_grid]],
                    uint t [[thread_index_in_threadgroup]],
                    uint n [[threads_per_threadgroup]])
{
    float best = -INFINITY;
    for (uint c = t; c < cols; c += n)
        best = max(best, m[row * cols + c]);
    partial[t] = best;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (t == 0) {
        for (uint i = 1; i < n; i++)
            best = max(best, partial[i]);
        maxes[row] = best;
    }
}

// pick_scale: y[i] = 2 * (i < split ? a : b)[i] through a pointer chosen at run time between two buffers (a buffer
// reference: the runtime passes both buffers' device addresses; the launch function takes the buffers as usual).
kernel void pick_scale(device const float *a [[buffer(0)]],
                       device const float *b [[buffer(1)]],
                       device float *y [[buffer(2)]],
                       constant uint &split [[buffer(3)]],
                       uint i [[thread_position_in_grid]])
{
    device const float *src = i < split ? a : b;
    y[i] = 2.0f * src[i];
}
