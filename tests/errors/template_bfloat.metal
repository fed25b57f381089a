// bfloat instances of the c10-like header's kernels are reported by name (bfloat is not translated yet);
// the float instance is still written. The header is found through -I, -D and __METAL_VERSION__ (310)
// choose what is compiled.
// ARGS: -I %d/../../samples/include -D WITH_BFLOAT=1 --list-entries %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: 13:1: error: bfloat is not supported yet (entry point 'neg_bfloat')
// EXPECT-STDOUT: neg_float
#include <metal_stdlib>
#include "c10_like.h"

REGISTER_UNARY_OP(neg, float)
#if WITH_BFLOAT && __METAL_VERSION__ >= 310
REGISTER_UNARY_OP(neg, bfloat)
#endif
