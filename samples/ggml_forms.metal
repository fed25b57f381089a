#include <metal_stdlib>
using namespace metal;

// C and C++ forms ggml's kernels are written in, each translated as Metal means it.

enum sort_order { ORDER_ASC, ORDER_DESC };

// Byte offsets with sizeof, the comma operator, a GNU range designator, static_assert in a body, and an
// enumerator as a template argument.
template <sort_order order>
kernel void pick(device const char* src [[buffer(0)]],
                 device float* dst [[buffer(1)]],
                 constant uint& n [[buffer(2)]],
                 uint i [[thread_position_in_grid]]) {
    static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "Metal's float4");
    device const float* row = (device const float*) (src + i * 4 * sizeof(float));
    float acc[4] = { [0 ... 3] = 0.25f };
    float lo, hi;
    lo = min(row[0], row[1]), hi = max(row[2], row[3]);
    for (int k = 0; k < 4; ++k)
        acc[k] *= row[k];
    float best = order == ORDER_ASC ? lo : hi;
    dst[i] = best + acc[0] + acc[1] + acc[2] + acc[3] + float(sizeof(half3) + alignof(short2));
}

typedef decltype(pick<ORDER_ASC>) pick_t;
template [[host_name("pick_asc")]] kernel pick_t pick<ORDER_ASC>;
template [[host_name("pick_desc")]] kernel pick_t pick<ORDER_DESC>;

// ggml's kernel_tri: the output is declared `device const char *` and written through a cast that drops const.
kernel void lower_triangle(device const char* src [[buffer(0)]],
                           device const char* dst [[buffer(1)]],
                           constant uint& cols [[buffer(2)]],
                           uint2 pos [[thread_position_in_grid]]) {
    device const float* s = (device const float*) (src + pos.y * cols * sizeof(float));
    device float* d = (device float*) ((device char*) dst + pos.y * cols * sizeof(float));
    d[pos.x] = pos.x <= pos.y ? s[pos.x] : 0.0f;
}
