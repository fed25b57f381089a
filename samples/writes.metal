#include <metal_stdlib>
using namespace metal;

// Writes the translation must not lose (issue 13's silent miscompiles): each kernel writes its result through
// a form whose GLSL counterpart once dropped the write or declared the buffer readonly.

constant constexpr int max_ndim = 4;

// PyTorch's c10::metal::pos_from_thread_index: the helper fills its caller's array through a `thread T a[N]`
// parameter (C passes an array by address; GLSL by value, so the parameter must be inout).
template <typename T>
inline void pos_from_thread_index(T idx, thread T pos[max_ndim], constant long* sizes, uint ndim) {
    for (uint i = 0; i < ndim; ++i) {
        pos[i] = idx % T(sizes[i]);
        idx /= T(sizes[i]);
    }
}

template <typename T>
inline T offset_from_coord(thread T idx[max_ndim], constant long* strides, uint ndim) {
    T rc = 0;
    for (uint i = 0; i < ndim; ++i)
        rc += idx[i] * T(strides[i]);
    return rc;
}

// The array passed on to the helper that writes it: this one writes it too, through the other.
inline void coords_reversed(int idx, thread int pos[max_ndim], constant long* sizes, uint ndim) {
    pos_from_thread_index(idx, pos, sizes, ndim);
    for (uint i = 0; i < ndim / 2; ++i) {
        int t = pos[i];
        pos[i] = pos[ndim - 1 - i];
        pos[ndim - 1 - i] = t;
    }
}

// A strided gather as PyTorch's unary_strided writes it: sizes and strides innermost first.
kernel void strided_copy(device float* output [[buffer(0)]],
                         constant float* input [[buffer(1)]],
                         constant long* sizes [[buffer(2)]],
                         constant long* input_strides [[buffer(3)]],
                         constant uint& ndim [[buffer(4)]],
                         uint index [[thread_position_in_grid]]) {
    int pos[max_ndim];
    pos_from_thread_index(int(index), pos, sizes, ndim);
    output[index] = input[offset_from_coord(pos, input_strides, ndim)];
}

// Each thread writes its coordinates, outermost first, through the two helpers.
kernel void coords(device int4* output [[buffer(0)]],
                   constant long* sizes [[buffer(1)]],
                   constant uint& ndim [[buffer(2)]],
                   uint index [[thread_position_in_grid]]) {
    int pos[max_ndim] = {-1, -1, -1, -1};
    coords_reversed(int(index), pos, sizes, ndim);
    output[index] = int4(pos[0], pos[1], pos[2], pos[3]);
}

struct Particle {
    float3 pos; // 0
    float3 vel; // 16
    float mass; // 32
};

// Writes through a `device T&` local: the buffer it refers into is written.
kernel void particles_nudge(device Particle* p [[buffer(0)]],
                            constant float& dt [[buffer(1)]],
                            uint i [[thread_position_in_grid]]) {
    device Particle& q = p[i];
    q.pos += q.vel * dt;
    q.mass *= 2.0f;
}

// A device reference made inside a helper, into the buffer its pointer parameter points into.
inline void scale_at(device float* x, uint j, float s) {
    device float& r = x[j];
    r *= s;
}

kernel void scale_through_ref(device float* x [[buffer(0)]],
                              constant float& s [[buffer(1)]],
                              uint i [[thread_position_in_grid]]) {
    scale_at(x, i, s);
}

// Registration macros whose `;` is written at the call site (PyTorch's style): each instance is an entry point.
template <typename T>
kernel void negate(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = -x[i]; }
#define REGISTER_NEGATE(T) template [[host_name("negate_" #T)]] kernel void negate<T>(device T*, uint)
REGISTER_NEGATE(float);
REGISTER_NEGATE(int);

// A buffer parameter moved by the kernel (ggml's `src0 += i03*args.nb03;`) and buffer indices written as
// expressions (`[[buffer(1 + 1)]]` was read as 1).
kernel void row_sums(device const float* src [[buffer(0)]],
                     device float* dst [[buffer(2 - 1)]],
                     constant uint& cols [[buffer(1 + 1)]],
                     uint row [[thread_position_in_grid]]) {
    src += row * cols;
    dst += row;
    float s = 0.0f;
    for (uint i = 0; i < cols; ++i)
        s += *src++;
    *dst = s;
}
