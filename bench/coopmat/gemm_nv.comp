#version 450
// bench/coopmat/gemm_nv.comp: the f16 GEMM of bench/gemm.metal (C = A * B, N x N row-major halves, float
// accumulation) written by hand on GL_NV_cooperative_matrix, to measure what tensor cores give through this
// toolchain (glslang 12, Vulkan) before the translator emits such code: the ceiling of issue 15's fast path.
// Same interface as the translated gemm_f16 (buffers 0-2, the dispatch block and mnk in the push constants), so
// it runs on that kernel's reflection with `cooperativeMatrix` added to its features (bench/gemm.py).
// 256 threads: 8 subgroups of 32 in a 2 x 4 grid, a 128 x 256 tile of C per workgroup, 64 x 64 per subgroup
// (4 x 4 accumulators of 16 x 16). K in steps of 32 through shared memory, rows padded by 16 bytes against bank
// conflicts (without the padding it takes twice as long); the next step's tiles are read into registers while
// this one's are multiplied. N must be a multiple of 256.
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

const uint BM = 128, BN = 256, BK = 32, THREADS = 256, WN = 4;
const uint AS = BK / 8 + 1, BS = BN / 8 + 1;                   // uvec4 per padded row of the A and B tiles
const uint RA = BM * BK / 8 / THREADS, RB = BK * BN / 8 / THREADS; // uvec4 each thread moves per step

shared uvec4 As[BM * AS];
shared uvec4 Bs[BK * BS];

void main()
{
    const uint N = mtl_params.mnk.y, K = mtl_params.mnk.z;
    const uint tid = gl_LocalInvocationIndex, sg = gl_SubgroupID;
    const uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
    const uint sm = (sg / WN) * 64u, sn = (sg % WN) * 64u;
    // every loop over matrices unrolled: an array of cooperative matrices indexed at run time leaves registers
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[4][4];
    [[unroll]] for (int i = 0; i < 4; i++)
        [[unroll]] for (int j = 0; j < 4; j++)
            acc[i][j] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
    uvec4 ra[RA], rb[RB];
    [[unroll]] for (uint s = 0u; s < RA; s++) {
        uint t = tid + s * THREADS, r = t / (BK / 8u), c = t % (BK / 8u);
        ra[s] = A8[((row0 + r) * K) / 8u + c];
    }
    [[unroll]] for (uint s = 0u; s < RB; s++) {
        uint t = tid + s * THREADS, r = t / (BN / 8u), c = t % (BN / 8u);
        rb[s] = B8[(r * N + col0) / 8u + c];
    }
    for (uint k0 = 0u; k0 < K; k0 += BK) {
        [[unroll]] for (uint s = 0u; s < RA; s++) {
            uint t = tid + s * THREADS, r = t / (BK / 8u), c = t % (BK / 8u);
            As[r * AS + c] = ra[s];
        }
        [[unroll]] for (uint s = 0u; s < RB; s++) {
            uint t = tid + s * THREADS, r = t / (BN / 8u), c = t % (BN / 8u);
            Bs[r * BS + c] = rb[s];
        }
        barrier();
        if (k0 + BK < K) { // the next step's tiles, in flight during the products
            [[unroll]] for (uint s = 0u; s < RA; s++) {
                uint t = tid + s * THREADS, r = t / (BK / 8u), c = t % (BK / 8u);
                ra[s] = A8[((row0 + r) * K + k0 + BK) / 8u + c];
            }
            [[unroll]] for (uint s = 0u; s < RB; s++) {
                uint t = tid + s * THREADS, r = t / (BN / 8u), c = t % (BN / 8u);
                rb[s] = B8[((k0 + BK + r) * N + col0) / 8u + c];
            }
        }
        [[unroll]] for (uint kk = 0u; kk < BK; kk += 16u) {
            fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> a[4], b[4];
            [[unroll]] for (int i = 0; i < 4; i++)
                coopMatLoadNV(a[i], As, (sm + 16u * uint(i)) * AS + kk / 8u, AS, false);
            [[unroll]] for (int j = 0; j < 4; j++)
                coopMatLoadNV(b[j], Bs, kk * BS + (sn + 16u * uint(j)) / 8u, BS, false);
            [[unroll]] for (int i = 0; i < 4; i++)
                [[unroll]] for (int j = 0; j < 4; j++)
                    acc[i][j] = coopMatMulAddNV(a[i], b[j], acc[i][j]);
        }
        barrier();
    }
    [[unroll]] for (int i = 0; i < 4; i++)
        [[unroll]] for (int j = 0; j < 4; j++) {
            fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> h = fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>(acc[i][j]);
            coopMatStoreNV(h, C, (row0 + sm + 16u * uint(i)) * N + col0 + sn + 16u * uint(j), N, false);
        }
}
