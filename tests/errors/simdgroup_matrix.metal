// SIMD-group matrices are 8x8 of float, half or bfloat: another shape or element type is an error naming the
// type at its declaration, never silent output.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+8:33: error: simdgroup_matrix<int, 8, 8> (only 8x8 matrices of float, half and bfloat are) is not supported
// EXPECT-ERROR: @+8:35: error: simdgroup_matrix<float, 4, 4> (only 8x8 matrices of float, half and bfloat are) is not supported
// EXPECT-NO-STDOUT
#include <metal_stdlib>
using namespace metal;

kernel void odd_matrices(device const float* a [[buffer(0)]],
                         device float* c [[buffer(1)]]) {
    simdgroup_matrix<int, 8, 8> mi;
    simdgroup_matrix<float, 4, 4> small;
    simdgroup_load(small, a);
    simdgroup_store(small, c);
}
