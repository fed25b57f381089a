#include <metal_stdlib>
using namespace metal;

// The C++ that templated kernel libraries are written in, one feature a line where possible.
// (Lambdas: translated as functions whose captured variables are extra parameters, inout when by reference.)

namespace lib {
namespace detail {

// a constant table at program scope: a GLSL const array
constant float weights[4] = {0.5f, 0.25f, 0.125f, 0.125f};

// non-type template parameter deduced from the array argument at the call site
template <typename T, int N>
T dot_table(thread const T (&v)[N]) {
    T s = T(0);
    for (int i = 0; i < N; i++) {
        s += v[i] * T(weights[i % 4]);
    }
    return s;
}

} // namespace detail

// overloads and a default argument
inline float scaled(float x, float k = 2.0f) { return x * k; }
inline int scaled(int x, int k = 3) { return x * k; }

// a class template with a static constexpr member, a constructor and member functions
template <typename T, int N>
struct Accum {
    static constexpr int size = N;
    T total;
    int count;
    Accum() : total(T(0)), count(0) {}
    void add(T v) {
        total += v;
        count++;
    }
    T mean() const { return total / T(count); }
};

// default member initializers (braced and `=`) for the members a constructor leaves out, as MLX's LoopedElemToLoc
template <typename T>
struct Cursor {
    int dim;
    T offset{T(3)};
    int index = 2;
    int step;
    Cursor(int d) : dim(d), step(index + 4) {}
    T location() const { return offset + T(dim) + T(index) + T(step); }
};

// a user type with operator overloading
struct Complex {
    float re, im;
    Complex& operator+=(Complex o) { // (written `thread Complex&`, clang rejects `*this`: OpenCL's this is generic)
        re += o.re;
        im += o.im;
        return *this;
    }
};
inline Complex operator+(Complex a, Complex b) { return Complex{a.re + b.re, a.im + b.im}; }
inline Complex operator*(Complex a, Complex b) { return Complex{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

// a trait-selected accumulation type, and a helper enabled for integers only
template <typename T> using acc_t = conditional_t<is_same_v<T, half>, float, T>;
template <typename T> enable_if_t<is_integral_v<T>, make_unsigned_t<T>> magnitude(T x) {
    return static_cast<make_unsigned_t<T>>(x < 0 ? -x : x);
}

} // namespace lib

typedef lib::Complex cfloat;
using lib::scaled;

template <typename T>
[[kernel]] void features(device const T* x [[buffer(0)]],
                         device float* out [[buffer(1)]],
                         device uint* mag [[buffer(2)]],
                         device float2* cplx [[buffer(3)]],
                         uint i [[thread_position_in_grid]]) {
    using A = lib::acc_t<T>;
    A v[4] = {A(x[4 * i]), A(x[4 * i + 1]), A(x[4 * i + 2]), A(x[4 * i + 3])};
    lib::Accum<A, 4> acc;
    for (int k = 0; k < lib::Accum<A, 4>::size; k++) {
        acc.add(v[k]);
    }
    float r = float(lib::detail::dot_table(v)) + float(acc.mean());
    if constexpr (is_floating_point_v<T>) {
        r += scaled(float(v[0]));            // float overload, default k = 2
    } else {
        r += float(scaled(int(v[0]), 5));    // int overload, k given
    }
    r += numeric_limits<T>::is_signed ? 1.0f : 0.0f;
    r += float(lib::Cursor<A>(10).location());   // 3 + 10 + 2 + 6
    // local lambdas: by reference (calls is updated) and by value
    float bias = 0.25f;
    int calls = 0;
    auto shift = [&](float t) {
        calls++;
        return t + bias;
    };
    auto twice_plus = [=](float t) { return t * 2.0f + bias; };
    r = shift(r);
    r = shift(r);
    r += float(calls);
    r += twice_plus(1.0f);
    out[i] = r;
    mag[i] = uint(lib::magnitude(int(x[4 * i])));
    cfloat a = {float(v[0]), float(v[1])};
    cfloat b = {float(v[2]), float(v[3])};
    cfloat c = a * b + a;
    c += b;
    cplx[i] = float2(c.re, c.im);
}

// three spellings of an explicit instantiation
template [[host_name("features_float")]] [[kernel]] decltype(features<float>) features<float>;
template [[host_name("features_half")]] kernel decltype(features<half>) features<half>;
template [[kernel, host_name("features_int")]] void features<int>(device const int*, device float*, device uint*,
                                                                 device float2*, uint);
