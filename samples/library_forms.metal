// The forms real kernel libraries write (ggml, MLX, PyTorch's c10), which the front end must see after
// preprocessing: kernels made by macros, registration macros with their ';' at the call site, an instance through
// a typedef of the function type, functions passed as template arguments, Metal's vector casts and initializers
// inside templates, threadgroup arrays of a kernel template passed to threadgroup-pointer helpers, double-looking
// literals, and constructors qualified by an address space.
#include <metal_stdlib>
using namespace metal;

// ---- a dequantizer passed as a template argument (ggml's mul_mv style) ----
// block: 4 half scales per 16 values, values stored as uchar offsets from 8
struct block_q { half d; uchar qs[16]; };

template <typename type4>
void dequantize_q(device const block_q *xb, short il, thread type4 &reg) {
    const float d = xb->d;
    reg = type4(d * (float(xb->qs[4 * il + 0]) - 8.0), d * (float(xb->qs[4 * il + 1]) - 8.0),
                d * (float(xb->qs[4 * il + 2]) - 8.0), d * (float(xb->qs[4 * il + 3]) - 8.0));
}

void dequantize_f32(device const float4 *xb, short il, thread float4 &reg) { reg = xb[il]; }

template <typename block_t, short per_block, void (*deq)(device const block_t *, short, thread float4 &)>
kernel void dot_rows(device const block_t *x [[buffer(0)]], device const float4 *v [[buffer(1)]],
                     device float *out [[buffer(2)]], uint row [[thread_position_in_grid]]) {
    float sum = 0.0f;
    for (short b = 0; b < per_block; b++) {
        float4 r;
        deq(x + row, b, r);
        sum += dot(r, v[b]);
    }
    out[row] = sum;
}

typedef decltype(dot_rows<block_q, 4, dequantize_q>) dot_rows_t;
template [[host_name("dot_rows_q")]] kernel dot_rows_t dot_rows<block_q, 4, dequantize_q>;
template [[host_name("dot_rows_f32")]] kernel dot_rows_t dot_rows<float4, 1, dequantize_f32>;

// ---- registration macros, ';' at the call site (PyTorch's style); casts and initializers in templates ----
template <typename T, typename T4>
kernel void gelu_vec(device const T4 *x [[buffer(0)]], device T4 *y [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    float4 v = (float4) x[i];                      // a C-style vector conversion: half4 -> float4
    float4 g = 0.5*v*(1 + precise::tanh(0.7978845608*(v + 0.044715*v*v*v)));   // 0.5: a float in Metal
    float4 zero = {0};                             // the rest zero-filled
    y[i] = T4(g + zero);                           // a functional vector conversion back
}
#define REGISTER_GELU(T, T4) template [[host_name("gelu_" #T)]] kernel void gelu_vec<T, T4>(device const T4 *, device T4 *, uint)
REGISTER_GELU(float, float4);
REGISTER_GELU(half, half4);

// ---- a threadgroup array of a kernel template handed to helpers (MLX's reductions) ----
template <typename T>
void store_tg(threadgroup T *shared, uint i, T v) { shared[i] = v; }

template <typename T>
T sum_tg(const threadgroup T *shared, uint n) {
    T s = T(0);
    for (uint k = 0; k < n; k++)
        s += shared[k];
    return s;
}

template <typename T, int N>
[[kernel, max_total_threads_per_threadgroup(N)]] void block_sum(device const T *x [[buffer(0)]], device T *out [[buffer(1)]],
                                                                 uint lid [[thread_position_in_threadgroup]],
                                                                 uint gid [[threadgroup_position_in_grid]]) {
    threadgroup T partial[N], shifted[N];
    store_tg(partial, lid, x[gid * N + lid]);
    short2 pos(lid % 2, lid / 2);                  // Metal's vector direct-initialization
    shifted[lid] = T(pos.x);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0)
        out[gid] = sum_tg(partial, N) + sum_tg(&shifted[0], N);
}
template [[host_name("block_sum_float")]] [[kernel]] decltype(block_sum<float, 64>) block_sum<float, 64>;

// ---- a whole kernel in a #define, attributes included; a struct with `thread`-qualified constructors ----
struct cplx {
    float re, im;
    constexpr cplx(float r, float i) thread : re(r), im(i) {}
};
cplx cmul(cplx a, cplx b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

#define COMPLEX_SQUARE(NAME)                                                                                  \
    kernel void NAME(device float2 *z [[buffer(0)]], uint i [[thread_position_in_grid]]) {                     \
        cplx c = cmul(cplx(z[i].x, z[i].y), cplx(z[i].x, z[i].y));                                             \
        z[i] = float2(c.re, c.im);                                                                             \
    }
COMPLEX_SQUARE(complex_square)

// ---- a float scalar with half vectors (ggml's soft_max with a half mask): Metal converts the scalar to half ----
kernel void scale_half(device const half4 *x [[buffer(0)]], device half4 *y [[buffer(1)]], constant float &s [[buffer(2)]],
                       uint i [[thread_position_in_grid]]) {
    y[i] = (i % 2 ? x[i]*s : 0.0f) + s*x[i];
}

// ---- an instance whose template arguments are deduced from the parameter types (MLX's unfold kernels) ----
template <typename T>
kernel void negate(device const T *x [[buffer(0)]], device T *y [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    y[i] = -x[i];
}
template [[host_name("negate_int")]] [[kernel]] void negate(device const int *x [[buffer(0)]], device int *y [[buffer(1)]],
                                                            uint i [[thread_position_in_grid]]);
