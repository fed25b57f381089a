#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8

// Forms of ggml's kernels around SIMD-group functions that an emulated SIMD-group (narrow or virtual subgroups)
// must keep: a switch on a value every thread shares, in a helper given the kernel's arguments (ggml's
// kernel_mul_mv_t_t_disp: `switch (args.nr0)`); a pointer into a buffer chosen at run time and a union, declared
// after a `continue` that only some threads take (ggml's flash_attn_ext_vec, kernel_mul_mv_iq1_m).

struct Params {
    int mode;   // 1: the SIMD-group's sum, 2: its largest value, else its smallest
    int n;
};

union bits16 {
    half f;
    ushort u;
};

template <typename args_t>
float reduce(args_t args, float v) {
    float r = 0.0f;
    switch (args.mode) {
    case 1:
        r = simd_sum(v);
        break;
    case 2:
        r = simd_max(v);
        break;
    default:
        r = simd_min(v);
        break;
    }
    return r;
}

kernel void simd_switch(constant Params& args [[buffer(0)]],
                        device const float* a [[buffer(1)]],
                        device const float* b [[buffer(2)]],
                        device const ushort* h [[buffer(3)]],
                        device float* out [[buffer(4)]],
                        uint gid [[thread_position_in_grid]])
{
    out[gid * 3 + 0] = reduce<constant Params&>(args, a[gid]);
    float acc = 0.0f;
    float hs = 0.0f;
    for (int i = 0; i < 4; i++) {
        if (a[gid] * float(i + 1) > 2.0f)
            continue;                                        // only some lanes go on
        device const float* p = (i & 1) ? a : b;             // its buffer chosen at run time
        acc += simd_sum(p[gid]);
        bits16 s;
        s.u = h[gid * 4 + i];
        hs += float(s.f);
    }
    out[gid * 3 + 1] = acc;
    out[gid * 3 + 2] = hs;
}

// Loops that only a break or a return ends (ggml's flash_attn_ext_vec: `for (int ic0 = ...; ; ic0 += ...)` with
// `if (ic >= args.ne11) break;`), around SIMD-group functions that some lanes stop reaching.
kernel void simd_endless(device const float* x [[buffer(0)]],
                         device float* out [[buffer(1)]],
                         uint gid [[thread_position_in_grid]],
                         uint lane [[thread_index_in_simdgroup]])
{
    float acc = 0.0f;
    for (int i = 0;; i++) {
        if (i > int(lane % 5))
            break;
        acc += simd_sum(x[gid] * float(i + 1));
    }
    out[gid * 2 + 0] = acc;
    int k = 0;
    float best = 0.0f;
    while (true) {
        best += simd_max(x[gid] + float(k));
        if (k == int(lane % 3)) {
            out[gid * 2 + 1] = best;
            return;
        }
        k++;
    }
}
