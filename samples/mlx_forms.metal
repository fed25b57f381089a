#include <metal_stdlib>
using namespace metal;

// The C++ forms MLX's kernels are written in (gemv.h, gemv_masked.h, complex.h, utils.h), one construct a line
// where possible: uniform<T> values, user constructors and conversion operators, an operator returning the
// reference it was given, arrays of structs made by their constructor, numeric_limits' infinities and NaNs.

// complex.h's complex_t, reduced: constructors (one a template), conversions to a two-lane vector and to scalars
template <typename T>
struct cplx {
    T re;
    T im;
    constexpr cplx() thread : re(1), im(0) {} // not zero: the test sees that it runs
    constexpr cplx(T r, T i) thread : re(r), im(i) {}
    template <typename U>
    constexpr cplx(U x) thread : re(static_cast<T>(x)), im(static_cast<T>(0)) {}
    constexpr operator vec<T, 2>() const thread { return vec<T, 2>(re, im); }
    template <typename U>
    constexpr operator U() const thread { return static_cast<U>(re); }
};

// complex.h's operator+=: returns the reference it was given
template <typename T>
constexpr thread cplx<T>& operator+=(thread cplx<T>& a, cplx<T> b) {
    a.re += b.re;
    a.im += b.im;
    return a;
}

template <typename T>
constexpr cplx<T> operator*(cplx<T> a, cplx<T> b) {
    return cplx<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

// gemv_masked.h's _NoMask: a struct that converts to bool (a non-const member: called on a variable)
struct no_mask {
    char x;
    constexpr METAL_FUNC operator bool() thread { return true; }
};

struct positive {
    float v;
    METAL_FUNC operator bool() const thread { return v > 0.0f; }
};

// utils.h's cast_to: static_cast<U>(val) of a struct goes through its conversion operator
template <typename U, typename T>
inline U cast_to(T val) {
    return static_cast<U>(val);
}

// gemv.h's loop bounds: uniform<int> values made with make_uniform, combined with operators, compared with ints
kernel void uniform_rows(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
                         constant int& n [[buffer(2)]], uint gid [[thread_position_in_grid]],
                         uint lid [[thread_position_in_threadgroup]]) {
    (void)lid;
    constexpr const uniform<int> step = make_uniform(4);
    const uniform<int> size = make_uniform(n);
    const uniform<int> iters = size / step;
    const uniform<int> last = step * iters;
    const uniform<int> rest = size - last;
    uniform<float> scale = make_uniform(0.5f);
    float s = 0.0f;
    for (int i = 0; i < iters; i++) {
        for (int j = 0; j < step; j++) {
            s += x[gid * n + i * step + j] * float(j + 1);
        }
    }
    for (int j = 0; j < rest; j++) {
        s += x[gid * n + last + j] * 100.0f;
    }
    out[gid] = s * scale;
}

template <typename T>
kernel void complex_ops(device const float2* x [[buffer(0)]], device float2* out [[buffer(1)]],
                        device T* re_out [[buffer(2)]], device int* flags [[buffer(3)]],
                        uint gid [[thread_position_in_grid]]) {
    thread cplx<T> acc[3]; // each element made by the default constructor: (1, 0)
    cplx<T> a = cplx<T>(T(x[gid].x), T(x[gid].y));
    acc[1] = 2;                // the converting constructor: (2, 0)
    acc[0] += a;               // operator+= as a statement
    cplx<T> b = (acc[1] += a); // and as a value
    cplx<T> p = acc[0] * b;
    vec<T, 2> v = p;           // operator vec<T, 2>
    out[gid] = float2(v);
    re_out[gid] = cast_to<T>(acc[2]) + static_cast<T>(b); // operator U through static_cast<U>
    no_mask m;
    positive pos = {float(x[gid].x)};
    flags[gid] = (m ? 1 : 0) + (pos ? 2 : 0) + static_cast<int>(acc[1]) * 4;
}

template [[host_name("complex_ops_float")]] kernel void complex_ops<float>(device const float2*, device float2*,
                                                                          device float*, device int*, uint);
template [[host_name("complex_ops_half")]] kernel void complex_ops<half>(device const float2*, device float2*,
                                                                        device half*, device int*, uint);

// utils.h's Limits: numeric_limits<T>::infinity() and quiet_NaN() for float, half and bfloat
template <typename T>
METAL_FUNC T inf_of() {
    return metal::numeric_limits<T>::infinity();
}

kernel void limits(device float* f [[buffer(0)]], device half* h [[buffer(1)]], device bfloat* b [[buffer(2)]],
                   uint gid [[thread_position_in_grid]]) {
    float s = float(gid);
    f[gid * 4 + 0] = inf_of<float>() * (s + 1.0f);
    f[gid * 4 + 1] = -metal::numeric_limits<float>::infinity();
    f[gid * 4 + 2] = metal::numeric_limits<float>::quiet_NaN();
    f[gid * 4 + 3] = metal::numeric_limits<float>::max();
    h[gid * 4 + 0] = inf_of<half>();
    h[gid * 4 + 1] = -metal::numeric_limits<half>::infinity();
    h[gid * 4 + 2] = metal::numeric_limits<half>::quiet_NaN();
    h[gid * 4 + 3] = metal::numeric_limits<half>::max();
    b[gid * 4 + 0] = inf_of<bfloat>();
    b[gid * 4 + 1] = -metal::numeric_limits<bfloat>::infinity();
    b[gid * 4 + 2] = metal::numeric_limits<bfloat>::quiet_NaN();
    b[gid * 4 + 3] = metal::numeric_limits<bfloat>::max();
}

// fp4.h's fp4_e2m1: a byte read as a struct through a cast pointer (fp_quantized.h's Dequantize), converted by a
// member operator that is not const (called on a value)
struct fp4_e2m1 {
    uint8_t bits;
    operator float() thread {
        half converted = as_type<half>(ushort((bits & 7) << 9));
        converted *= 16384.0;
        return float(bits & 8 ? -converted : converted);
    }
};

struct half_box {
    half h;
};

template <typename U>
struct dequantize {
    U operator()(uint8_t x) thread {
        return U(*(thread fp4_e2m1*)(&x));
    }
};

kernel void fp4_decode(device const uchar* q [[buffer(0)]], device const ushort* hb [[buffer(1)]],
                       device float* out [[buffer(2)]], uint gid [[thread_position_in_grid]]) {
    ushort u = hb[gid];
    out[gid * 2] = dequantize<float>{}(q[gid]);
    out[gid * 2 + 1] = float((*(thread half_box*)(&u)).h); // the bits of a ushort as a half member
}

// sort.h's forms: a program-scope constant made by a constructor (Init<complex64_t>::v), a struct-typed ?: between a
// buffer element and that constant, and a template flag that leaves a pointer nullptr in the branch it never takes.
template <typename T>
struct PadValue {
    static constexpr constant cplx<T> v = cplx<T>(T(-1.5), T(2.25));
};

template <typename T, bool WITH_IDX>
void fill_block(threadgroup cplx<T>* vals, threadgroup uint* idxs, const device cplx<T>* in, int n, uint lid) {
    PadValue<T> pad; // reduce_row.h's `Op op; ... op.init`: a static member named through an object
    vals[lid] = int(lid) < n ? in[lid] : pad.v;
    if (WITH_IDX) {
        idxs[lid] = lid * 10; // idxs is nullptr when !WITH_IDX: never reached there
    }
}

template <bool WITH_IDX>
kernel void padded_reverse(const device cplx<float>* in [[buffer(0)]], device cplx<float>* out [[buffer(1)]],
                           device uint* idx_out [[buffer(2)]], constant int& n [[buffer(3)]],
                           uint lid [[thread_position_in_threadgroup]]) {
    if (WITH_IDX) {
        threadgroup cplx<float> vals[64];
        threadgroup uint idxs[64];
        fill_block<float, WITH_IDX>(vals, idxs, in, n, lid);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[lid] = vals[63 - lid];
        idx_out[lid] = idxs[63 - lid];
    } else {
        threadgroup cplx<float> vals[64];
        fill_block<float, WITH_IDX>(vals, nullptr, in, n, lid);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[lid] = vals[63 - lid];
    }
}
template [[host_name("padded_reverse_idx")]] kernel void padded_reverse<true>(const device cplx<float>*,
    device cplx<float>*, device uint*, constant int&, uint);
template [[host_name("padded_reverse_vals")]] kernel void padded_reverse<false>(const device cplx<float>*,
    device cplx<float>*, device uint*, constant int&, uint);

// reduce_row.h's per_thread_row_reduce: an array of row pointers handed to a helper, which advances them (the
// caller's array: C passes arrays by address)
template <int N>
void rows_sum(thread float totals[N], const device float* inputs[N], int n) {
    for (int j = 0; j < N; j++) {
        totals[j] = 0;
        for (int i = 0; i < n; i++)
            totals[j] += inputs[j][i];
        inputs[j] += n;
    }
}

kernel void row_pointers(const device float* in [[buffer(0)]], device float* out [[buffer(1)]],
                         constant int& n [[buffer(2)]], uint gid [[thread_position_in_grid]]) {
    const device float* inputs[2];
    inputs[0] = in + gid * 2 * n;
    for (int i = 1; i < 2; i++)
        inputs[i] = inputs[i - 1] + n;
    float totals[2];
    rows_sum<2>(totals, inputs, n);
    out[gid * 2] = totals[0];
    out[gid * 2 + 1] = totals[1] + inputs[1][0]; // the row after the second: moved by rows_sum
}

// utils.h's LoopedElemToLoc::next(n, ...): a member function that calls itself last, with the steps left over
// (GLSL has no recursion: a loop)
struct Odometer {
    int index;
    int carries;
    void next(int n, int size) thread {
        if (size <= 0) {
            return;
        }
        index += n;
        if (index >= size) {
            int extra = index - size;
            index = 0;
            carries++;
            if (extra > 0) {
                next(extra, size);
            }
        }
    }
};

kernel void odometer(device const int* steps [[buffer(0)]], device int* out [[buffer(1)]],
                     constant int& size [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    Odometer o;
    o.index = 0;
    o.carries = 0;
    for (int k = 0; k < 4; k++)
        o.next(steps[i * 4 + k], size);
    out[2 * i] = o.index;
    out[2 * i + 1] = o.carries;
}

// reduce_row.h's row_reduce_looped: the addresses of a local value and of a local pointer passed for one-element
// array parameters (`per_thread_row_reduce<T, U, Op, N_READS, 1>(&row_total, &row, ...)`), and bfloat() (zero)
kernel void row_pointer_one(const device float* in [[buffer(0)]], device float* out [[buffer(1)]],
                            device bfloat* out_b [[buffer(2)]], constant int& n [[buffer(3)]],
                            uint gid [[thread_position_in_grid]]) {
    const device float* row = in + gid * n;
    float total = -100.0f; // rows_sum sets it
    rows_sum<1>(&total, &row, n);
    out[gid] = total + row[0]; // row moved past its row by rows_sum
    bfloat zero = bfloat();
    out_b[gid] = zero + bfloat(total);
}

// random.metal's threefry rounds: range-based for over a row of a program-scope constant table (by value), and over
// a thread array by const reference
static constexpr constant uint32_t rot_table[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};

kernel void rotate_rounds(device const uint2* in [[buffer(0)]], device uint2* out [[buffer(1)]],
                          uint i [[thread_position_in_grid]]) {
    uint2 v = in[i];
    for (int k = 0; k < 3; ++k) {
        for (auto r : rot_table[k % 2]) {
            v.x += v.y;
            v.y = (v.y << r) | (v.y >> (32 - r));
            v.y ^= v.x;
        }
    }
    uint extra[3] = {1u, 2u, 3u};
    for (const thread uint& e : extra)
        v.x += e * v.y;
    out[i] = v;
}
