#include <metal_stdlib>
using namespace metal;

// The C++ forms of MLX's quantized.h, fp_quantized.h and fft.h, one construct a kernel: references to pointers
// that helpers move, a constructor that returns early, a struct of one array read as bytes, static members of a
// struct template (named `max` and `min`), pointers kept in a struct, a nullptr default argument and
// __builtin_ctz in a constant expression.

// quantized.h's adjust_matrix_offsets: moves its caller's pointers (the kernel's buffers) to a batch
template <typename T>
METAL_FUNC void adjust_offsets(const device T*& x, const device uint32_t*& w, device T*& y, const constant int& stride,
                               uint3 tid) {
    x += tid.y * stride;
    w += tid.y;
    y += tid.y * stride;
}

// a helper's reference passed on to another helper's reference, and a local pointer moved by reference
template <typename T>
METAL_FUNC void step_by(const device T*& p, int k) {
    p += k;
}

template <typename T>
METAL_FUNC void skip_two(const device T*& p) {
    step_by(p, 1);
    step_by(p, 1);
}

kernel void batched_scale(const device float* x [[buffer(0)]], const device uint32_t* w [[buffer(1)]],
                          device float* y [[buffer(2)]], constant int& stride [[buffer(3)]],
                          constant int& batched [[buffer(4)]], uint3 tid [[thread_position_in_grid]]) {
    if (batched)
        adjust_offsets(x, w, y, stride, tid);
    const device float* xp = x;
    step_by(xp, int(tid.x));
    const device float* x2 = x + tid.x;
    skip_two(x2); // x2 is two past xp: read only when inside the row
    float next = tid.x + 2 < uint(stride) ? *x2 : 0.0f;
    y[tid.x] = *xp * float(w[0]) + next;
}

// fp_quantized.h's fp8_e8m0: a constructor that returns early
struct e8m0 {
    uint8_t bits;
    e8m0(float x) {
        if (!metal::isfinite(x)) {
            bits = 0xff;
            return;
        }
        if (x < 0) {
            bits = 0x00;
            return;
        }
        int n = int(metal::round(metal::log2(x)));
        n = n < -127 ? -127 : n;
        n = n > 127 ? 127 : n;
        bits = uint8_t(n + 127);
    }
};

kernel void e8m0_encode(const device float* x [[buffer(0)]], device uint* out [[buffer(1)]],
                        uint i [[thread_position_in_grid]]) {
    out[i] = e8m0(x[i]).bits;
}

// quantized.h's qvm: a local struct of one uint32 array, loaded from a buffer through a cast pointer and read
// as bytes, also by a helper
typedef struct {
    uint32_t wi[2];
} vec_w;

METAL_FUNC uint weigh(const thread uint8_t* b, int n) {
    uint s = 0;
    for (int i = 0; i < n; i++)
        s += uint(b[i]) * uint(i + 1);
    return s;
}

kernel void byte_weights(const device uint32_t* w [[buffer(0)]], device uint* out [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    thread vec_w w_local;
    w_local = *((const device vec_w*)(w + 2 * i));
    thread uint8_t* b = (thread uint8_t*)&w_local;
    out[2 * i] = weigh((thread uint8_t*)&w_local, 8);
    out[2 * i + 1] = uint(b[3]) | (uint(b[4]) << 8);
}

// utils.h's Limits: static members of a struct template named after built-in functions, read as bfloat,
// half and float (bfloat's infinity is a constant of its bits)
template <typename T>
struct Limits {
    static constexpr constant T max = metal::numeric_limits<T>::infinity();
    static constexpr constant T min = -metal::numeric_limits<T>::infinity();
    static constexpr constant T finite_max = metal::numeric_limits<T>::max();
};

template <typename T>
METAL_FUNC float range_of(const device T* x, int n) {
    float lo = Limits<T>::max, hi = Limits<T>::min;
    for (int i = 0; i < n; i++) {
        lo = min(lo, float(x[i]));
        hi = max(hi, float(x[i]));
    }
    return hi - lo;
}

kernel void limits_range(const device bfloat* xb [[buffer(0)]], const device half* xh [[buffer(1)]],
                         device float* out [[buffer(2)]], constant int& n [[buffer(3)]],
                         uint i [[thread_position_in_grid]]) {
    out[4 * i] = range_of(xb + i * n, n);
    out[4 * i + 1] = range_of(xh + i * n, n);
    out[4 * i + 2] = float(Limits<bfloat>::finite_max);
    out[4 * i + 3] = float(Limits<half>::min);
}

// fft.h's ReadWriter: pointers to a buffer, threadgroup memory and an output kept in a struct, set by its
// constructor and used by its member functions; a pointer derived from a member
template <typename T>
struct ReadWriter {
    const device T* in;
    threadgroup T* buf;
    device T* out;
    int n;

    METAL_FUNC ReadWriter(const device T* in_, threadgroup T* buf_, device T* out_, int n_) thread
        : in(in_), buf(buf_), out(out_), n(n_) {}

    METAL_FUNC void load(uint i) const thread {
        buf[i] = in[i] * T(2);
    }

    METAL_FUNC void write(uint i) const thread {
        threadgroup T* seq = buf + (n - 1);
        out[i] = *(seq - i);
    }
};

// an aggregate with a pointer member
struct Span {
    const device float* data;
    int len;
};

METAL_FUNC float last_of(Span s) {
    return s.data[s.len - 1];
}

kernel void reverse_double(const device float* x [[buffer(0)]], device float* y [[buffer(1)]],
                           constant int& n [[buffer(2)]], device float* last [[buffer(3)]],
                           uint lid [[thread_position_in_threadgroup]], uint tg [[threadgroup_position_in_grid]]) {
    threadgroup float shared[64];
    thread ReadWriter<float> io = ReadWriter<float>(x + tg * n, &shared[0], y + tg * n, n);
    io.load(lid);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    io.write(lid);
    Span s = {x + tg * n, n};
    if (lid == 0)
        last[tg] = last_of(s);
}

// fft.h's perform_fft: a pointer parameter that defaults to nullptr; __builtin_ctz in a constant expression
METAL_FUNC float scaled(float v, const device float* scale = nullptr) {
    return scale ? v * scale[0] : v;
}

template <int radix>
METAL_FUNC int power_of() {
    constexpr short power = __builtin_ctz(radix);
    return power;
}

kernel void default_null(const device float* x [[buffer(0)]], const device float* s [[buffer(1)]],
                         device float* y [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    y[2 * i] = scaled(x[i]) + float(power_of<8>());
    y[2 * i + 1] = scaled(x[i], s) + float(power_of<64>());
}
