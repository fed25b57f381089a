#include <metal_stdlib>
using namespace metal;

// Forms of PyTorch's c10 kernels, each translated as Metal means it.

// c10's ref_at_offs: a reference into a buffer at a byte offset, through reinterpret_cast; the helper returns a
// reference to device memory (an index into the buffer in GLSL) and the caller assigns through it.
template <typename T>
inline constant T& ref_at_offs(constant char* ptr, long offs) {
    return *reinterpret_cast<constant T*>(static_cast<constant char*>(ptr) + offs);
}
template <typename T>
inline device T& ref_at_offs(device char* ptr, long offs) {
    return *reinterpret_cast<device T*>(static_cast<device char*>(ptr) + offs);
}

// A strided binary op as c10's binary_strided writes it: byte strides, one dimension.
template <typename T>
kernel void mul_strided(device char* output [[buffer(0)]],
                        constant char* input [[buffer(1)]],
                        constant char* other [[buffer(2)]],
                        constant long& input_stride [[buffer(3)]],
                        constant long& other_stride [[buffer(4)]],
                        uint index [[thread_position_in_grid]]) {
    const auto a = ref_at_offs<T>(input, index * input_stride);
    const auto b = ref_at_offs<T>(other, index * other_stride);
    ref_at_offs<T>(output, index * sizeof(T)) = a * b;
    const_cast<device T&>(ref_at_offs<T>(output, index * sizeof(T))) += T(1);
}
template [[host_name("mul_strided_float")]] kernel void mul_strided<float>(device char*, constant char*, constant char*,
                                                                          constant long&, constant long&, uint);
template [[host_name("mul_strided_int")]] kernel void mul_strided<int>(device char*, constant char*, constant char*,
                                                                      constant long&, constant long&, uint);

// c10's chbevl: an unsized array parameter (a pointer in C) given local tables of two sizes.
template <typename T>
T chbevl(T x, const float array[], const int len) {
    T b0 = array[0], b1 = 0, b2 = 0;
    for (int i = 1; i < len; ++i) {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + array[i];
    }
    return T(0.5) * (b0 - b2);
}

// LossCTC's switch on a long: a value past 32 bits takes the default, not the label of its low bits.
kernel void series(device float* out [[buffer(0)]],
                   constant long& base [[buffer(1)]],
                   uint i [[thread_position_in_grid]]) {
    constexpr float A[3] = {1.0f, -0.5f, 0.25f};
    constexpr float B[5] = {0.125f, 2.0f, -1.0f, 0.5f, 3.0f};
    float x = float(i % 7) * 0.25f;
    float r;
    long s = base + long(i % 4);
    switch (s) {
    case 0:
        r = chbevl(x, A, 3);
        break;
    case 1:
        r = chbevl(x, B, 5);
        break;
    default:
        r = 100.0f;
    }
    out[i] = r;
}

// c10::metal::array (metal::array<T, N>): a GLSL array, copied by value, returned from helpers, written through
// a reference, passed in push constants and held in structs; a[i], size(), front(), back().
namespace c10m {
template <typename T, size_t N>
using array = ::metal::array<T, N>;
}

struct ShapeParams {
    c10m::array<int, 3> sizes; // innermost first
    float scale;
};

template <size_t N>
c10m::array<int, N> coords_of(int idx, constant c10m::array<int, N>& sizes) {
    c10m::array<int, N> pos;
    for (uint i = 0; i < pos.size(); ++i) {
        pos[i] = idx % sizes[i];
        idx /= sizes[i];
    }
    return pos;
}

void reverse(thread c10m::array<int, 3>& a) {
    int t = a.front();
    a[0] = a.back();
    a[a.size() - 1] = t;
}

kernel void coords_array(device int4* out [[buffer(0)]],
                         constant c10m::array<int, 3>& sizes [[buffer(1)]],
                         device const ShapeParams* params [[buffer(2)]],
                         uint i [[thread_position_in_grid]]) {
    c10m::array<int, 3> pos = coords_of(int(i), sizes);
    c10m::array<int, 3> copy = pos;
    reverse(copy);
    out[i] = int4(copy[0], copy[1], copy[2], int(float(pos[0] + params->sizes[2]) * params->scale));
}

// PyTorch's Shape.metal and EmbeddingBag.metal name the arrays of their parameter struct with constant
// references (`constant auto& strides = params.strides;`), in the kernel and in helpers: const copies of what
// they refer to, as constant memory does not change. EmbeddingBag's kernel dispatches with `return impl(...);`
// of a void helper in each case of a switch.
struct GatherParams {
    int ndim;
    int mode;
    c10m::array<long, 4> sizes;   // innermost first
    c10m::array<long, 4> strides; // in elements
};

long offset_of(long idx, constant GatherParams& p) {
    constant auto& sizes = p.sizes;
    constant auto& strides = p.strides;
    constant int& ndim = p.ndim;
    long off = 0;
    for (int d = 0; d < ndim; d++) {
        off += (idx % sizes[d]) * strides[d];
        idx /= sizes[d];
    }
    return off;
}

template <int M>
void gather_impl(constant float* in, device float* out, constant GatherParams& p, uint tid) {
    constant auto& strides = p.strides;
    float v = in[offset_of(tid, p)];
    out[tid] = M == 0 ? v : v * float(strides[0]);
}

kernel void gather_strided(constant float* in [[buffer(0)]],
                           device float* out [[buffer(1)]],
                           constant GatherParams& params [[buffer(2)]],
                           uint tid [[thread_position_in_grid]]) {
    switch (params.mode) {
    case 0:
        return gather_impl<0>(in, out, params, tid);
    default:
        return gather_impl<1>(in, out, params, tid);
    }
}

// LossOps.metal's variadic logsumexp: a pack expanded into a local array, its length `1 + sizeof...(Ts)`.
template <typename T, typename... Ts>
T logsumexp(T first, Ts... rest) {
    T args[] = {first, T(rest)...};
    constexpr int N = 1 + sizeof...(Ts);
    T m = args[0];
    for (int i = 1; i < N; i++)
        m = max(m, args[i]);
    T s = 0;
    for (int i = 0; i < N; i++)
        s += exp(args[i] - m);
    return log(s) + m;
}

kernel void logsumexp3(device const float* a [[buffer(0)]],
                       device const float* b [[buffer(1)]],
                       device float2* out [[buffer(2)]],
                       uint i [[thread_position_in_grid]]) {
    out[i] = float2(logsumexp(a[i], b[i]), logsumexp(a[i], b[i], a[i] - b[i]));
}

// Frexp.metal calls frexp's pointer overload, `frexp(x, &exp)`; UnaryKernel.metal names its overload set
// `frexp_` (a name that must not become GLSL's frexp).
inline float frexp_(const float x, thread int& e) {
    return frexp(x, e);
}

kernel void frexp_forms(device const float* in [[buffer(0)]],
                        device float2* mant [[buffer(1)]],
                        device int2* exps [[buffer(2)]],
                        uint i [[thread_position_in_grid]]) {
    int exp;
    float m = frexp(in[i], &exp);
    int e2 = 0;
    float m2 = frexp_(in[i] * 3.0f, e2);
    mant[i] = float2(m, m2);
    exps[i] = int2(exp, e2);
}

// c10's TORCH_REPORT_ERROR: a kernel writes a message into an error buffer through helpers that take string
// literals as `constant const char*` (a literal, __func__), print integers digit by digit ('0' + d) and take
// their arguments as a parameter pack. Each literal is a constant char array; the helpers are printed per literal.
// (The index is a long: lavapipe of Mesa 22.3 compares an int widened to a long with 0 as unsigned.)
struct Report {
    char where[32];
    char text[64];
    uint line;
};

struct Reports {
    atomic_uint count;
    Report report[2];
};

static uint put_text(device char* dst, constant const char* src, uint room) {
    uint i = 0;
    for (; src[i] != 0 && i + 1 < room; i++)
        dst[i] = src[i];
    dst[i] = 0;
    return i;
}

static uint put_arg(device char* dst, uint room, constant const char* s) {
    return put_text(dst, s, room);
}

static uint put_arg(device char* dst, uint room, long v) {
    uint digits = 1;
    for (long t = v < 0 ? -v : v; t > 9; t /= 10)
        digits++;
    uint len = digits + (v < 0 ? 1 : 0);
    if (len + 1 > room)
        return 0;
    if (v < 0) {
        dst[0] = '-';
        v = -v;
    }
    for (uint k = 0; k < digits; k++, v /= 10)
        dst[len - 1 - k] = '0' + v % 10;
    dst[len] = 0;
    return len;
}

template <typename T>
void put_args(device char* dst, uint room, T arg) {
    put_arg(dst, room, arg);
}

template <typename T, typename... Rest>
void put_args(device char* dst, uint room, T arg, Rest... rest) {
    const uint n = put_arg(dst, room, arg);
    put_args(dst + n, room - n, rest...);
}

template <typename... Args>
void report(device Reports* reports, constant const char* where, int line, Args... args) {
    const uint k = atomic_fetch_add_explicit(&reports->count, 1u, memory_order_relaxed);
    if (k >= 2)
        return;
    device Report* r = &reports->report[k];
    put_text(r->where, where, 32);
    put_args(r->text, 64, args...);
    r->line = line;
}

kernel void gather_checked(device const long* index [[buffer(0)]],
                           device const float* src [[buffer(1)]],
                           device float* out [[buffer(2)]],
                           device Reports* reports [[buffer(3)]],
                           constant long& size [[buffer(4)]],
                           uint i [[thread_position_in_grid]]) {
    const long idx = index[i];
    if (idx < 0 || idx >= size) {
        report(reports, __func__, 7, "index ", idx, " is out of bounds for size ", size);
        out[i] = 0;
        return;
    }
    out[i] = src[idx];
}

// UnaryKernel.metal's frexp_bits counts the leading zeros of a half's bits as a ushort: clz, ctz and popcount of
// 8- and 16-bit integers and their vectors (0 has as many leading and trailing zeros as bits).
kernel void narrow_bits(device const ushort* a [[buffer(0)]],
                        device const char2* b [[buffer(1)]],
                        device int4* out [[buffer(2)]],
                        device char4* out8 [[buffer(3)]],
                        uint i [[thread_position_in_grid]]) {
    const ushort x = a[i];
    out[i] = int4(clz(x), ctz(x), popcount(x), int(clz(short(x))));
    out8[i] = char4(clz(b[i]), ctz(b[i]) + popcount(b[i]) * char2(16));
}

// c10's REGISTER_BINARY_OP_ macros name the template to instantiate with its qualified name split across the
// macro's lines (`::c10::` on one, `metal::binary_dense<...>` on the next): one name for C++, whatever the spaces.
namespace c10 {
namespace metal {
template <typename T>
kernel void sub_scaled(device T* out [[buffer(0)]],
                       constant T* a [[buffer(1)]],
                       constant T* b [[buffer(2)]],
                       constant T& alpha [[buffer(3)]],
                       uint i [[thread_position_in_grid]]) {
    out[i] = a[i] - alpha * b[i];
}
} // namespace metal
} // namespace c10

#define REGISTER_SUB_SCALED(DTYPE)                                                         \
    template [[host_name("sub_scaled_" #DTYPE)]] kernel void ::c10::                      \
        metal::sub_scaled<DTYPE>(device DTYPE * out, constant DTYPE * a, constant DTYPE * b, \
                                 constant DTYPE & alpha, uint i)
#define REGISTER_SUB_SCALED_GLOBAL(DTYPE)                                                  \
    template [[host_name("sub_scaled_" #DTYPE)]] kernel void ::                            \
        c10::metal::sub_scaled<DTYPE>(device DTYPE * out, constant DTYPE * a, constant DTYPE * b, \
                                      constant DTYPE & alpha, uint i)
REGISTER_SUB_SCALED(float);
REGISTER_SUB_SCALED_GLOBAL(int);

// BinaryKernel.metal's eq/ne functors on complex values: all(a == b), any(a != b) of half2 (and of long and char
// vectors): masks of every element width.
kernel void vector_masks(device const half2* h [[buffer(0)]],
                         device const long2* l [[buffer(1)]],
                         device const char3* c [[buffer(2)]],
                         device uint* out [[buffer(3)]],
                         uint i [[thread_position_in_grid]]) {
    const half2 ha = h[2 * i], hb = h[2 * i + 1];
    const long2 la = l[2 * i], lb = l[2 * i + 1];
    const char3 ca = c[2 * i], cb = c[2 * i + 1];
    out[i] = (all(ha == hb) ? 1u : 0u) | (any(ha != hb) ? 2u : 0u) | (all(la < lb) ? 4u : 0u) |
             (any(la >= lb) ? 8u : 0u) | (all(ca <= cb) ? 16u : 0u) | (any(ca > cb) ? 32u : 0u);
}

// UnaryKernel.metal's complex sqrt: static_cast<decltype(x.y)>(float value), decltype of a vector element being a
// reference to it in C++; the converted value binds to it (one template for half2 and float2).
template <typename T>
T half_root(const T x) {
    const auto m = length(x);
    return T(static_cast<decltype(x.y)>(precise::sqrt((m + x.x) * .5)), static_cast<decltype(x.y)>(x.y * 2));
}

kernel void half_roots(device const float2* a [[buffer(0)]],
                       device const half2* h [[buffer(1)]],
                       device float2* out [[buffer(2)]],
                       device half2* hout [[buffer(3)]],
                       uint i [[thread_position_in_grid]]) {
    out[i] = half_root(a[i]);
    hout[i] = half_root(h[i]);
}

// FunctionOfAMatrixUtils.metal's `ref_at_offs<T>(out_ptr, out_off) += acc`: on bfloat, and with an operand of
// another type, GLSL needs `x = T(x op y)`, which prints the left side twice. The helper only computes an index,
// so its call may be repeated (an atomic there may not: tests/errors/lvalue_side_effects.metal).
template <typename T>
kernel void accumulate_at_offs(device char* out [[buffer(0)]],
                               constant char* in [[buffer(1)]],
                               constant long& out_stride [[buffer(2)]],
                               constant int& terms [[buffer(3)]],
                               uint i [[thread_position_in_grid]]) {
    T acc = T(0);
    for (int k = 0; k < terms; ++k)
        acc += ref_at_offs<T>(in, long(i * terms + k) * long(sizeof(T)));
    ref_at_offs<T>(out, i * out_stride) += acc;
    ref_at_offs<T>(out, i * out_stride) *= 0.5f;
}
template [[host_name("accumulate_at_offs_bfloat")]] kernel void accumulate_at_offs<bfloat>(
    device char*, constant char*, constant long&, constant int&, uint);
template [[host_name("accumulate_at_offs_half")]] kernel void accumulate_at_offs<half>(
    device char*, constant char*, constant long&, constant int&, uint);

kernel void remainder_at_offs(device char* out [[buffer(0)]],
                              constant int& m [[buffer(1)]],
                              constant long& out_stride [[buffer(2)]],
                              uint i [[thread_position_in_grid]]) {
    ref_at_offs<int>(out, i * out_stride) %= m;
    ref_at_offs<short>(out, i * out_stride + 4) %= short(m);
}

// FusedOptimizerOps.metal's two `fused_sgd` kernel templates (with and without momentum), overloaded on their
// argument struct, each instance named with its parameter list: the one whose parameters match.
template <typename T>
struct SgdArgs {
    T lr;
};
template <typename T>
struct SgdMomentumArgs {
    T lr;
    T momentum;
};
template <typename T>
kernel void sgd_step(constant SgdArgs<T>& args [[buffer(0)]],
                     device T* param [[buffer(1)]],
                     device const T* grad [[buffer(2)]],
                     uint i [[thread_position_in_grid]]) {
    param[i] -= args.lr * grad[i];
}
template <typename T>
kernel void sgd_step(constant SgdMomentumArgs<T>& args [[buffer(0)]],
                     device T* param [[buffer(1)]],
                     device const T* grad [[buffer(2)]],
                     device T* velocity [[buffer(3)]],
                     uint i [[thread_position_in_grid]]) {
    velocity[i] = args.momentum * velocity[i] + grad[i];
    param[i] -= args.lr * velocity[i];
}
template [[host_name("sgd_step_float")]] kernel void sgd_step<float>(
    constant SgdArgs<float>& args [[buffer(0)]], device float* param [[buffer(1)]], device const float* grad [[buffer(2)]],
    uint i [[thread_position_in_grid]]);
template [[host_name("sgd_momentum_step_float")]] kernel void sgd_step<float>(
    constant SgdMomentumArgs<float>& args [[buffer(0)]], device float* param [[buffer(1)]],
    device const float* grad [[buffer(2)]], device float* velocity [[buffer(3)]], uint i [[thread_position_in_grid]]);

// CrossOp.metal's REGISTER_CROSS_FUNC(bfloat): `bfloat3 out;` declared without a value, its components assigned.
static inline bfloat3 cross_components(bfloat3 x, bfloat3 y) {
    bfloat3 out;
    out.x = x.y * y.z - x.z * y.y;
    out.y = x.z * y.x - x.x * y.z;
    out.z = x.x * y.y - x.y * y.x;
    return out;
}

kernel void bfloat_cross(device const bfloat3* a [[buffer(0)]],
                         device const bfloat3* b [[buffer(1)]],
                         device bfloat3* out [[buffer(2)]],
                         uint i [[thread_position_in_grid]]) {
    out[i] = cross_components(a[i], b[i]);
}

// c10's gamma and log_gamma call each other, each under a guard that stops the cycle after one turn: gamma calls
// log_gamma only for x >= 8, log_gamma calls gamma only for |x| < 8. The call that closes the cycle goes to a copy
// of the callee whose branch back the guard rules out (gamma_of_x_lt8 in the GLSL).
float stirling_log_gamma(float y) { /* log Γ(y) for y >= 8 */
    const float z = 1.0f / (y * y);
    const float series = (1.0f / 12.0f - z * (1.0f / 360.0f - z * (1.0f / 1260.0f))) / y;
    return (y - 0.5f) * log(y) - y + 0.91893853320467274f + series;
}

template <typename T>
float log_gamma_of(const T x);

template <typename T>
T gamma_of(const T x) {
    if (x >= 8.0) {
        return exp(log_gamma_of(x));
    }
    float y = x, prod = 1.0f; /* Γ(x) = Γ(x + n) / (x (x + 1) ... (x + n - 1)) */
    while (y < 8.0f) {
        prod *= y;
        y += 1.0f;
    }
    return exp(stirling_log_gamma(y)) / prod;
}

template <typename T>
float log_gamma_of(const T x) {
    const auto ax = abs(static_cast<float>(x));
    if (ax < 8.0) {
        return log(abs(gamma_of(ax)));
    }
    return stirling_log_gamma(ax);
}

kernel void gamma_pair(device const float* x [[buffer(0)]],
                       device float* g [[buffer(1)]],
                       device float* lg [[buffer(2)]],
                       uint i [[thread_position_in_grid]]) {
    g[i] = gamma_of(x[i]);
    lg[i] = log_gamma_of(x[i]);
}

// UnaryKernel.metal's forms: `::precise::log(10)` and `pow(2, k)` of integers (Metal makes them float; to clang the
// float and half overloads were ambiguous), and conditionals of a bfloat and another arithmetic type, which Metal
// gives the usual arithmetic conversions: `isnan(x) ? x : x < 0 ? M_PI_F : 0.0` (angle_functor) is a float, and
// so is bfloat with half; bfloat with an integer is a bfloat (1025 rounds to 1024 before it becomes a float).
template <typename T>
T angle_of(const T x) {
    return T(isnan(x) ? x : x < 0 ? M_PI_F : 0.0);
}

template <typename T>
float pick_count(const T x, long n) {
    return n < 3 ? x : n;
}

template <typename T>
float pick_half(const T x, half h) {
    return x > 0 ? x : h;
}

kernel void int_math_bfloat_conditionals(device const bfloat* x [[buffer(0)]],
                                         device const long* n [[buffer(1)]],
                                         device const half* h [[buffer(2)]],
                                         device bfloat* angle [[buffer(3)]],
                                         device float* picked [[buffer(4)]],
                                         device float* logs [[buffer(5)]],
                                         uint i [[thread_position_in_grid]]) {
    angle[i] = angle_of(x[i]);
    picked[2 * i] = pick_count(x[i], n[i]);
    picked[2 * i + 1] = pick_half(x[i], h[i]);
    logs[i] = ::precise::log(10) * float(i % 7) + pow(2, int(i % 5)) + fast::log2(n[i] > 0 ? n[i] : 1);
}

// CrossOp.metal's per-type cross overloads: `bool3 cross(bool3, bool3)` beside `int3 cross(int3, int3)` (bool
// vectors are types of their own), called from a kernel template whose instance has U = bool3. A bool component
// holds true or false whatever is assigned to it (x.y * y.z - x.z * y.y is -1, 0 or 1), and reads as 1 or 0.
static inline int3 cross(int3 x, int3 y) {
    return int3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x);
}

static inline bool3 cross(bool3 x, bool3 y) {
    bool3 r;
    r.x = x.y * y.z - x.z * y.y;
    r.y = x.z * y.x - x.x * y.z;
    r.z = x.x * y.y - x.y * y.x;
    return r;
}

template <typename T, typename U>
kernel void cross_rows(device const T* a [[buffer(0)]],
                       device const T* b [[buffer(1)]],
                       device T* out [[buffer(2)]],
                       device int* first [[buffer(3)]],
                       uint i [[thread_position_in_grid]]) {
    const U x = {a[3 * i], a[3 * i + 1], a[3 * i + 2]};
    const U y = {b[3 * i], b[3 * i + 1], b[3 * i + 2]};
    const U r = cross(x, y);
    out[3 * i] = r.x;
    out[3 * i + 1] = r.y;
    out[3 * i + 2] = r.z;
    first[i] = x.y * y.z - x.z * y.y;
}

template [[host_name("cross_rows_int")]] kernel void cross_rows<int, int3>(
    device const int*, device const int*, device int*, device int*, uint);
template [[host_name("cross_rows_bool")]] kernel void cross_rows<bool, bool3>(
    device const bool*, device const bool*, device bool*, device int*, uint);

// Bool vectors as Metal has them: comparisons of float, half and long vectors stored in bool4/bool2 (initialized,
// assigned, returned) and combined with bool vectors (`lt == a > 0.0f`: the comparison first), bool3 elements read
// from a buffer (4 bytes each, 1 byte per component), any/all/select of both, conversions to int and float (true is
// 1, not all ones), from int (nonzero is true), C-style casts, select with an integer mask (made bool, as ggml's
// `select(1, -1, signs & mask)`), and a template instance whose parameter is a bool vector.
bool2 both_less(long2 p, long2 q) {
    return p < q;
}

template <typename V>
int count_true(V v) {
    return v.x + v.y + v.z;
}

kernel void bool_vectors(device const float4* f [[buffer(0)]],
                         device const half4* h [[buffer(1)]],
                         device const long2* l [[buffer(2)]],
                         device const bool3* m3 [[buffer(3)]],
                         device bool2* out2 [[buffer(4)]],
                         device bool4* out4 [[buffer(5)]],
                         device int4* ints [[buffer(6)]],
                         device float4* floats [[buffer(7)]],
                         device bool4* mixed [[buffer(8)]],
                         uint i [[thread_position_in_grid]]) {
    const float4 a = f[2 * i], b = f[2 * i + 1];
    const half4 ha = h[2 * i], hb = h[2 * i + 1];
    bool4 lt = a < b;
    bool4 hge;
    hge = ha >= hb;
    bool2 lne = both_less(l[2 * i], l[2 * i + 1]);
    const bool3 m = m3[i];
    out4[i] = lt != hge;
    out2[i] = lne || bool2(m.xy);
    mixed[i] = (lt == a > 0.0f) && (b < 1.0f || hge);
    bool3 nz = bool3(int3(int(i % 3), 0, -2));
    nz.y = 2;
    const int s = m.x + m.y - m.z;
    ints[i] = int4(lt) * 10 + int4(m, false) - (int4)hge + int4(nz, count_true(m) + 4 * s) + select(1, -1, s & 1) * 100;
    floats[i] = select(b, a, lt) + select(float4(0.0f), float4(100.0f), ha == hb) +
                float4(float(any(lt)), float(all(hge)), float(all(m)) * 1000.0f, float(nz.x - nz.y));
}

// Indexing.metal's kernel_index_offsets: `packed_uint3` as a template argument (12-byte strides), uint3 or ulong3
// the other. clang 14 writes the instance without the typedef name; the parameter is laid out packed all the same.
template <typename StridesT, typename DataT>
kernel void offsets_of(constant StridesT* strides [[buffer(0)]],
                       device DataT* offsets [[buffer(1)]],
                       constant uint* shape [[buffer(2)]],
                       constant uint& ndim [[buffer(3)]],
                       uint i [[thread_position_in_grid]]) {
    offsets[i] = 0;
    uint idx = i;
    for (uint d = 0; d < ndim; d++) {
        const uint rem = idx % shape[d];
        idx /= shape[d];
        offsets[i] += rem * DataT(strides[d]);
    }
}

template [[host_name("offsets_of_32")]] kernel void offsets_of<packed_uint3, uint3>(
    constant packed_uint3*, device uint3*, constant uint*, constant uint&, uint);
template [[host_name("offsets_of_64")]] kernel void offsets_of<packed_uint3, ulong3>(
    constant packed_uint3*, device ulong3*, constant uint*, constant uint&, uint);
