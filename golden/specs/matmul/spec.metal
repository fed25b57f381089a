#include <metal_stdlib>
using namespace metal;
#line 1 "samples/specs/matmul.json(signature)"
[[kernel]] void matmul(
    device const float* A [[buffer(0)]],
    device const float* B [[buffer(1)]],
    device float* C [[buffer(2)]],
    constant uint* A_extents [[buffer(3)]],
    constant uint* B_extents [[buffer(4)]],
    constant uint* C_extents [[buffer(5)]],
    uint2 gid [[thread_position_in_grid]]) {
#line 1 "samples/specs/matmul.json(src)"
// C = A @ B with tensor indexing: extent 0 is the innermost (last PyTorch) dimension and the first
// subscript indexes it, so A[k, m] is A[m][k]. Grid: x = column of C, y = row of C.
uint K = A_extents[0];
float acc = 0.0f;
for (uint k = 0; k < K; k++)
    acc += A[(k + A_extents[0] * (gid.y))] * B[(gid.x + B_extents[0] * (k))];
C[(gid.x + C_extents[0] * (gid.y))] = acc;

#line 9 "samples/specs/matmul.json(signature)"
}
