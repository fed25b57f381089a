// Branches whose condition is constant in one template instance: only the branch taken is translated, as in
// MLX's sort, whose kernels without indices pass a null pointer that only `if (ARG_SORT)` code writes through.
#include <metal_stdlib>
using namespace metal;

template <bool WITH_INDEX>
void copy_block(const device float* in, device float* out, threadgroup uint* idx, uint i, uint lid)
{
    out[i] = 2.0f * in[i];
    if (WITH_INDEX) {
        idx[lid] = i * 3u + 1u; // never reached with idx == nullptr
    }
}

template <bool WITH_INDEX, int N>
[[kernel]] void scaled(const device float* in [[buffer(0)]],
                       device float* out [[buffer(1)]],
                       device uint* out_idx [[buffer(2)]],
                       uint i [[thread_position_in_grid]],
                       uint lid [[thread_position_in_threadgroup]])
{
    if (WITH_INDEX) {
        threadgroup uint idx[64];
        copy_block<WITH_INDEX>(in, out, idx, i, lid);
        out_idx[i] = idx[lid];
    } else {
        copy_block<WITH_INDEX>(in, out, nullptr, i, lid);
    }
    if (N > 1 && i % 2 == 0) // constant false when N == 1, whatever i is
        out[i] += 1.0f;
}

template [[host_name("scaled_index")]] [[kernel]] void scaled<true, 2>(const device float*, device float*, device uint*, uint, uint);
template [[host_name("scaled_plain")]] [[kernel]] void scaled<false, 1>(const device float*, device float*, device uint*, uint, uint);
