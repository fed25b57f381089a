#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8

// One attention row per SIMD-group with an online softmax: out = softmax(q . K^T * scale) V, reading each key
// once. Lane l holds dimensions l, l + 32, l + 64, l + 96 of the head (head_dim <= 128); simd_sum gives each
// score; the running maximum m and sum l rescale the accumulator as larger scores arrive.
// Launch: dispatchThreads with 32 threads per query row.
kernel void attention_row(device const float* q [[buffer(0)]],
                          device const float* k [[buffer(1)]],
                          device const float* v [[buffer(2)]],
                          device float* out [[buffer(3)]],
                          constant uint& rows [[buffer(4)]],
                          constant uint& keys [[buffer(5)]],
                          constant uint& head_dim [[buffer(6)]],
                          constant float& scale [[buffer(7)]],
                          uint gid [[thread_position_in_grid]],
                          uint lane [[thread_index_in_simdgroup]])
{
    uint row = gid / 32;
    if (row >= rows)
        return;
    float qv[4];
    float acc[4];
    for (uint c = 0; c < 4; c++) {
        uint d = lane + 32 * c;
        qv[c] = d < head_dim ? q[row * head_dim + d] : 0.0f;
        acc[c] = 0.0f;
    }
    float m = -INFINITY;
    float l = 0.0f;
    for (uint j = 0; j < keys; j++) {
        float partial = 0.0f;
        for (uint c = 0; c < 4; c++) {
            uint d = lane + 32 * c;
            if (d < head_dim)
                partial += qv[c] * k[j * head_dim + d];
        }
        float s = simd_sum(partial) * scale;
        float m_new = max(m, s);
        float correction = exp(m - m_new);
        float p = exp(s - m_new);
        l = l * correction + p;
        for (uint c = 0; c < 4; c++) {
            uint d = lane + 32 * c;
            acc[c] = acc[c] * correction + (d < head_dim ? p * v[j * head_dim + d] : 0.0f);
        }
        m = m_new;
    }
    for (uint c = 0; c < 4; c++) {
        uint d = lane + 32 * c;
        if (d < head_dim)
            out[row * head_dim + d] = acc[c] / l;
    }
}
