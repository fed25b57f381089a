#version 450
// bench/coopmat/gemm_nv_steel.comp: bench/gemm.metal's tiling with -DWM=1 (MLX's steel tiles for half on its large
// devices: 64 x 64 of C per threadgroup, K 16 at a time, 2 SIMD-groups of 64 x 32; rows of the A and B tiles padded by
// 16 bytes; no reads ahead) written by hand on GL_NV_cooperative_matrix, each subgroup's part as 4 x 2 accumulators of
// 16 x 16 loaded from shared memory with coopMatLoadNV. What this tiling allows on tensor cores, for comparison with
// its translation (bench/gemm.py's tensor_cores_wm1). Same interface as the translated gemm_f16 (buffers 0-2, the
// dispatch block and mnk in the push constants); 64 threads; N a multiple of 64.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
// A and B read 8 halves at a time
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_A { uvec4 A8[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_B { uvec4 B8[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_C { float16_t C[]; };
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uvec3 mnk;
} mtl_params;

const uint BM = 64, BN = 64, BK = 16, THREADS = 64;
const uint AS = BK / 8 + 1, BS = BN / 8 + 1;                   // uvec4 per padded row of the A and B tiles
const uint RA = BM * BK / 8 / THREADS, RB = BK * BN / 8 / THREADS; // uvec4 each thread moves per step
shared uvec4 As[BM * AS];
shared uvec4 Bs[BK * BS];
void main()
{
    const uint N = mtl_params.mnk.y, K = mtl_params.mnk.z;
    const uint tid = gl_LocalInvocationIndex, sg = gl_SubgroupID;
    const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
    const uint sn = sg * 32u; // this subgroup's 32 columns of the tile, all 64 rows
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[4][2];
    [[unroll]] for (int i = 0; i < 4; i++)
        [[unroll]] for (int j = 0; j < 2; j++)
            acc[i][j] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
    for (uint k0 = 0u; k0 < K; k0 += BK) {
        [[unroll]] for (uint s = 0u; s < RA; s++) {
            uint t = tid + s * THREADS, r = t / (BK / 8u), c = t % (BK / 8u);
            As[r * AS + c] = A8[((row0 + r) * K + k0) / 8u + c];
        }
        [[unroll]] for (uint s = 0u; s < RB; s++) {
            uint t = tid + s * THREADS, r = t / (BN / 8u), c = t % (BN / 8u);
            Bs[r * BS + c] = B8[((k0 + r) * N + col0) / 8u + c];
        }
        barrier();
        fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> a[4], b[2];
        [[unroll]] for (int i = 0; i < 4; i++)
            coopMatLoadNV(a[i], As, (16u * uint(i)) * AS, AS, false);
        [[unroll]] for (int j = 0; j < 2; j++)
            coopMatLoadNV(b[j], Bs, (sn + 16u * uint(j)) / 8u, BS, false);
        [[unroll]] for (int i = 0; i < 4; i++)
            [[unroll]] for (int j = 0; j < 2; j++)
                acc[i][j] = coopMatMulAddNV(a[i], b[j], acc[i][j]);
        barrier();
    }
    [[unroll]] for (int i = 0; i < 4; i++)
        [[unroll]] for (int j = 0; j < 2; j++) {
            fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> h = fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>(acc[i][j]);
            coopMatStoreNV(h, C, (row0 + 16u * uint(i)) * N + col0 + sn + 16u * uint(j), N, false);
        }
}
