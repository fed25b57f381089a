// The front end sees the program after preprocessing: every kernel the file defines is listed, however a macro
// made it, and an error in a helper stops only the kernels that use it (the others are still listed).
// ARGS: --list-entries %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: 15:32: error: use of undeclared identifier 'not_declared'
// EXPECT-STDOUT: plain
// EXPECT-STDOUT: from_macro
// EXPECT-STDOUT: reg_neg_float
// EXPECT-STDOUT: reg_neg_half
// EXPECT-STDOUT: typedef_scale_f32
// EXPECT-STDOUT: uses_broken
#include <metal_stdlib>
using namespace metal;

float broken(float x) { return not_declared * x; }

kernel void plain(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] += 1.0f; }

// a whole kernel, attributes included, inside a #define
#define MAKE_KERNEL(NAME, OP) \
    kernel void NAME(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = OP(x[i]); }
MAKE_KERNEL(from_macro, abs)

// registration macros whose ';' is written at the call site (PyTorch's style)
template <typename T>
kernel void neg(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = -x[i]; }
#define REGISTER_NEG(T) template [[host_name("reg_neg_" #T)]] kernel void neg<T>(device T*, uint)
REGISTER_NEG(float);
REGISTER_NEG(half);

// an instance through a typedef of the function type (ggml's style)
template <typename T>
kernel void scale(device T* x [[buffer(0)]], constant float& s [[buffer(1)]], uint i [[thread_position_in_grid]]) { x[i] *= s; }
typedef decltype(scale<float>) scale_t;
template [[host_name("typedef_scale_f32")]] kernel scale_t scale<float>;

kernel void uses_broken(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = broken(x[i]); }
