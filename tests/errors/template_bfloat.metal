// bfloat instances of the c10-like header's kernels are written like the float one; an instance for a type
// the functor cannot take is reported at the header line that fails, and the others are still written. The
// header is found through -I, -D and __METAL_VERSION__ (310) choose what is compiled.
// ARGS: -I %d/../../samples/include -D WITH_BFLOAT=1 %s
// EXPECT-EXIT: 1
// EXPECT-STDERR: c10_like.h:22:60: error: invalid argument type '__private Pair' to unary expression
// EXPECT-STDOUT: neg_float
// EXPECT-STDOUT: neg_bfloat
#include <metal_stdlib>
#include "c10_like.h"

struct Pair {
    float a, b;
};

REGISTER_UNARY_OP(neg, float)
#if WITH_BFLOAT && __METAL_VERSION__ >= 310
REGISTER_UNARY_OP(neg, bfloat)
#endif
REGISTER_UNARY_OP(neg, Pair)
