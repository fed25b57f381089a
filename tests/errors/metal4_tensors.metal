// Metal 4 tensors and mpp::tensor_ops::matmul2d (MetalPerformancePrimitives) are not translated: each construct is
// an error naming it (written the way ggml's and MLX's Metal 4 GEMMs use them), never a clang cascade.
// ARGS: -std=metal4.0 %s
// EXPECT-EXIT: 1
// EXPECT-ERROR: 20:10: error: metal::tensor (Metal 4 tensors and MetalPerformancePrimitives) is not supported
// EXPECT-ERROR: 22:106: error: mpp::tensor_ops::matmul2d (Metal 4 tensors and MetalPerformancePrimitives) is not supported
// EXPECT-ERROR: 23:15: error: mpp::tensor_ops::matmul2d::get_destination_cooperative_tensor (Metal 4
// EXPECT-ERROR: 23:10: error: the cooperative tensor's type (Metal 4
// EXPECT-ERROR: 24:15: error: metal::tensor::slice (Metal 4
// EXPECT-ERROR: 25:5: error: mpp::tensor_ops::matmul2d::run (Metal 4
// EXPECT-ERROR: 27:5: error: the cooperative tensor's store (Metal 4
// EXPECT-NO-STDOUT
#include <metal_stdlib>
#include <metal_tensor>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;

kernel void tensor_gemm(device half* a [[buffer(0)]], device half* b [[buffer(1)]], device float* d [[buffer(2)]],
                        uint2 tg [[threadgroup_position_in_grid]]) {
    auto ta = tensor(a, dextents<int32_t, 2>(64, 64));
    auto tb = tensor(b, dextents<int32_t, 2>(64, 64));
    mpp::tensor_ops::matmul2d<mpp::tensor_ops::matmul2d_descriptor(32, 32, 64), execution_simdgroups<4>> mm;
    auto ct = mm.get_destination_cooperative_tensor<decltype(ta), decltype(tb), float>();
    auto sa = ta.slice(0, tg.y * 32);
    mm.run(sa, tb, ct);
    auto td = tensor(d, dextents<int32_t, 2>(64, 64));
    ct.store(td);
}
