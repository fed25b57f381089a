// A pointer to a matrix type nothing instantiates: clang gives it no fields (was an endless recursion, SIGSEGV).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 8:33: error: this matrix type is not supported yet
#include <metal_stdlib>
using namespace metal;

kernel void k(device float* o [[buffer(0)]]) {
    thread matrix<float, 5, 5>* p = nullptr;
    o[0] = p ? 1.0f : 2.0f;
}
