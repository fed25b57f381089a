#include <metal_stdlib>
#include <metal_simdgroup_matrix>
using namespace metal;

// An f16 GEMM, C = A * B (A M x K, B K x N, C M x N, row-major; float accumulation, half result), written the way
// MLX's steel GEMM (steel/gemm/gemm.h, loader.h, mma.h) is written:
// - BM x BN threadgroup tiles, K BK at a time, WM x WN SIMD-groups each computing a (BM / WM) x (BN / WN) part as
//   TM x TN 8x8 SIMD-group matrices. The defaults are MLX's tile parameters for half (matmul.cpp,
//   GEMM_TPARAM_MACRO) on its medium devices: 64, 64, 16 with 2 x 2 SIMD-groups; -DWM=1 gives its large devices'
//   1 x 2 (bench/gemm.py builds both).
// - A and B staged in threadgroup memory whose rows are padded by 16 bytes (MLX's tgp_padding), each thread copying
//   its BM * BK / threads contiguous halves of a row as one struct of bytes (MLX's BlockLoader and ReadVector).
// - Every loop over tiles and matrices fully unrolled (MLX's STEEL_PRAGMA_UNROLL); the K loop is not.
// - The result written from thread_elements() at the coordinates each lane computes (Apple's layout).
// M, N and K are multiples of 64 (bench/gemm.py).
#ifndef WM
#define WM 2
#endif
#define UNROLL _Pragma("clang loop unroll(full)")

constant constexpr int BM = 64, BN = 64, BK = 16, WN = 2, THREADS = 32 * WM * WN;
constant constexpr int TM = BM / (8 * WM), TN = BN / (8 * WN);
constant constexpr int PAD = 16 / sizeof(half), LDA = BK + PAD, LDB = BN + PAD;
// the loaders: each thread copies READS_X halves of a row, COLS_X threads a row, ROWS_X rows at a time
constant constexpr int READS_A = BM * BK / THREADS, COLS_A = BK / READS_A, ROWS_A = THREADS / COLS_A;
constant constexpr int READS_B = BK * BN / THREADS, COLS_B = BN / READS_B, ROWS_B = THREADS / COLS_B;
struct ReadVectorA { uint8_t v[sizeof(half) * READS_A]; };
struct ReadVectorB { uint8_t v[sizeof(half) * READS_B]; };

kernel void gemm_f16(device const half* A [[buffer(0)]],
                     device const half* B [[buffer(1)]],
                     device half* C [[buffer(2)]],
                     constant uint3& mnk [[buffer(3)]],
                     uint2 group [[threadgroup_position_in_grid]],
                     ushort tid [[thread_index_in_threadgroup]],
                     ushort sg [[simdgroup_index_in_threadgroup]],
                     ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup half As[BM * LDA];
    threadgroup half Bs[BK * LDB];
    const uint N = mnk.y, K = mnk.z;
    const uint row0 = group.y * BM, col0 = group.x * BN;
    const ushort sm = (sg / WN) * (TM * 8), sn = (sg % WN) * (TN * 8);
    const ushort ar = tid / COLS_A, ac = (tid % COLS_A) * READS_A;
    const ushort br = tid / COLS_B, bc = (tid % COLS_B) * READS_B;
    simdgroup_float8x8 acc[TM][TN];
    UNROLL for (int i = 0; i < TM; i++)
        UNROLL for (int j = 0; j < TN; j++)
            acc[i][j] = make_filled_simdgroup_matrix<float, 8>(0.0f);
    for (uint k0 = 0; k0 < K; k0 += BK) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
        UNROLL for (int r = 0; r < BM; r += ROWS_A)
            *(threadgroup ReadVectorA*)(As + (ar + r) * LDA + ac) =
                *(device const ReadVectorA*)(A + (row0 + ar + r) * K + k0 + ac);
        UNROLL for (int r = 0; r < BK; r += ROWS_B)
            *(threadgroup ReadVectorB*)(Bs + (br + r) * LDB + bc) =
                *(device const ReadVectorB*)(B + (k0 + br + r) * N + col0 + bc);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        UNROLL for (int kk = 0; kk < BK; kk += 8) {
            simdgroup_half8x8 a[TM], b[TN];
            UNROLL for (int i = 0; i < TM; i++)
                simdgroup_load(a[i], As + (sm + 8 * i) * LDA + kk, LDA);
            UNROLL for (int j = 0; j < TN; j++)
                simdgroup_load(b[j], Bs + kk * LDB + sn + 8 * j, LDB);
            UNROLL for (int i = 0; i < TM; i++)
                UNROLL for (int j = 0; j < TN; j++)
                    simdgroup_multiply_accumulate(acc[i][j], a[i], b[j], acc[i][j]);
        }
    }
    const ushort qid = lane / 4;
    const ushort fm = (qid & 4) + (lane / 2) % 4, fn = (qid & 2) * 2 + (lane % 2) * 2;
    UNROLL for (int i = 0; i < TM; i++)
        UNROLL for (int j = 0; j < TN; j++) {
            uint r = row0 + sm + 8 * i + fm, c = col0 + sn + 8 * j + fn;
            *(device half2*)(C + r * N + c) = half2(acc[i][j].thread_elements());
        }
}
