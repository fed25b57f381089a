#include <metal_stdlib>
#include <metal_simdgroup_matrix>
using namespace metal;

// An f16 GEMM, C = A * B (A M x K, B K x N, C M x N, row-major; float accumulation, half result), written the way
// MLX's steel GEMM is written: 64x64 threadgroup tiles, K 16 at a time, 4 SIMD-groups (2 x 2) each computing a 32x32
// quarter as 4 x 4 SIMD-group matrices, A and B staged in threadgroup memory with vector loads by every thread,
// the result written from thread_elements() at the coordinates each lane computes (Apple's layout).
// M, N and K are multiples of 64 (bench/gemm.py).
constant constexpr int BM = 64, BN = 64, BK = 16, WN = 2, TM = 4, TN = 4, THREADS = 128;

kernel void gemm_f16(device const half* A [[buffer(0)]],
                     device const half* B [[buffer(1)]],
                     device half* C [[buffer(2)]],
                     constant uint3& mnk [[buffer(3)]],
                     uint2 group [[threadgroup_position_in_grid]],
                     ushort tid [[thread_index_in_threadgroup]],
                     ushort sg [[simdgroup_index_in_threadgroup]],
                     ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup half As[BM * BK];
    threadgroup half Bs[BK * BN];
    const uint N = mnk.y, K = mnk.z;
    const uint row0 = group.y * BM, col0 = group.x * BN;
    const ushort sm = (sg / WN) * (TM * 8), sn = (sg % WN) * (TN * 8);
    simdgroup_float8x8 acc[TM][TN];
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++)
            acc[i][j] = make_filled_simdgroup_matrix<float, 8>(0.0f);
    for (uint k0 = 0; k0 < K; k0 += BK) {
        for (ushort i = tid; i < BM * BK / 4; i += THREADS) {
            ushort r = i / (BK / 4), c = (i % (BK / 4)) * 4;
            *(threadgroup half4*)(As + r * BK + c) = *(device const half4*)(A + (row0 + r) * K + k0 + c);
        }
        for (ushort i = tid; i < BK * BN / 4; i += THREADS) {
            ushort r = i / (BN / 4), c = (i % (BN / 4)) * 4;
            *(threadgroup half4*)(Bs + r * BN + c) = *(device const half4*)(B + (k0 + r) * N + col0 + c);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (ushort kk = 0; kk < BK; kk += 8) {
            simdgroup_half8x8 a[TM], b[TN];
            for (int i = 0; i < TM; i++)
                simdgroup_load(a[i], As + (sm + 8 * i) * BK + kk, BK);
            for (int j = 0; j < TN; j++)
                simdgroup_load(b[j], Bs + kk * BN + sn + 8 * j, BN);
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++)
                    simdgroup_multiply_accumulate(acc[i][j], a[i], b[j], acc[i][j]);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    const ushort qid = lane / 4;
    const ushort fm = (qid & 4) + (lane / 2) % 4, fn = (qid & 2) * 2 + (lane % 2) * 2;
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            uint r = row0 + sm + 8 * i + fm, c = col0 + sn + 8 * j + fn;
            *(device half2*)(C + r * N + c) = half2(acc[i][j].thread_elements());
        }
}
