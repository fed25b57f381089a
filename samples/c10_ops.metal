#include <metal_stdlib>
#include "include/c10_like.h"
using namespace metal;

// Kernels registered from the header's macros: one entry point per operator and dtype.
REGISTER_UNARY_OP(neg, float)
REGISTER_UNARY_OP(neg, half)
REGISTER_UNARY_OP(neg, int)
REGISTER_UNARY_OP(square, float)
REGISTER_UNARY_OP(square, half)
REGISTER_UNARY_OP(square, int)
REGISTER_BINARY_OP(add, float)
REGISTER_BINARY_OP(add, half)
REGISTER_BINARY_OP(add, int)
REGISTER_BINARY_OP(maximum, float)
REGISTER_BINARY_OP(maximum, int)
REGISTER_BINARY_OP(div, float)
REGISTER_BINARY_OP(div, int)
// bfloat instances: the functors' arithmetic goes through float, rounded to bfloat where a bfloat is made.
REGISTER_UNARY_OP(neg, bfloat)
REGISTER_UNARY_OP(square, bfloat)
REGISTER_BINARY_OP(add, bfloat)
REGISTER_BINARY_OP(maximum, bfloat)
REGISTER_BINARY_OP(div, bfloat)

// Written out, without a macro.
template [[host_name("leaky_relu_float")]] [[kernel]] decltype(leaky_relu_kernel<float>) leaky_relu_kernel<float>;
template [[host_name("leaky_relu_half")]] [[kernel]] decltype(leaky_relu_kernel<half>) leaky_relu_kernel<half>;
template [[host_name("leaky_relu_bfloat")]] [[kernel]] decltype(leaky_relu_kernel<bfloat>) leaky_relu_kernel<bfloat>;
