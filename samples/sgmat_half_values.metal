// SIMD-group matrix products of float fragments that hold half values, as MLX's steel GEMM writes them: its tiles
// are float2 fragments (a lane's thread_elements()) filled with static_cast<float> of half threadgroup memory, and
// each product builds its simdgroup_float8x8 matrices from them. Under --tensor-cores the translator proves which
// products can only see half values (docs/translator.md, "Tensor cores") and runs those on the tensor cores.
//
// C (M x N, float) = A (M x K) * B (K x N): one SIMD-group per threadgroup computes an 8 x 16 block of C (two
// fragments along N), K 8 at a time through threadgroup memory; M a multiple of 8, N of 16, K of 8.
#include <metal_stdlib>
using namespace metal;

struct GemmSize {
    uint M, N, K;
};

// Two 8x8 fragments along N, MLX's MMATile in small. The operands' tiles and the accumulators are different types
// (in MLX, MMATile instances of different shapes): the proof follows each member of a struct type as one place, so
// products written into a FragTile would make every FragTile's values unproven.
struct FragTile {
    float2 frags[2];
};
struct AccTile {
    float2 frags[2];
};

// Where a lane's two elements of an 8x8 matrix are (Apple's layout, computed as MLX's BaseMMAFrag::get_coord does)
inline short2 frag_coord(ushort lane) {
    short qid = lane / 4;
    short fm = (qid & 4) + ((lane / 2) % 4);
    short fn = (qid & 2) * 2 + (lane % 2) * 2;
    return short2(fn, fm);
}

template <typename T>
inline void load_frag(thread float2& dst, const threadgroup T* src, int ld, short2 at) {
    for (short j = 0; j < 2; j++)
        dst[j] = static_cast<float>(src[at.y * ld + at.x + j]);
}

inline void frag_mma(thread float2& d, thread float2& a, thread float2& b, thread float2& c) {
    simdgroup_float8x8 am, bm, cm, dm;
    am.thread_elements() = a;
    bm.thread_elements() = b;
    cm.thread_elements() = c;
    simdgroup_multiply_accumulate(dm, am, bm, cm);
    d = dm.thread_elements();
}

// The 8 x 8 tile of A and the 8 x 16 tile of B at k0, in threadgroup memory, by the 32 lanes.
template <typename T>
inline void stage(device const T* A, device const T* B, threadgroup T* As, threadgroup T* Bs, constant GemmSize& s,
                  uint row0, uint col0, uint k0, ushort lane) {
    for (uint i = lane; i < 64; i += 32)
        As[i] = A[(row0 + i / 8) * s.K + k0 + i % 8];
    for (uint i = lane; i < 128; i += 32)
        Bs[i] = B[(k0 + i / 16) * s.N + col0 + i % 16];
}

inline void store_block(device float* C, thread AccTile& acc, constant GemmSize& s, uint row0, uint col0, short2 at) {
    for (short j = 0; j < 2; j++)
        for (short e = 0; e < 2; e++)
            C[(row0 + at.y) * s.N + col0 + 8 * j + at.x + e] = acc.frags[j][e];
}

// Half inputs: every product on the tensor cores under --tensor-cores.
kernel void frag_gemm_half(device const half* A [[buffer(0)]],
                           device const half* B [[buffer(1)]],
                           device float* C [[buffer(2)]],
                           constant GemmSize& s [[buffer(3)]],
                           uint2 tg [[threadgroup_position_in_grid]],
                           ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup half As[64];
    threadgroup half Bs[128];
    uint row0 = tg.y * 8, col0 = tg.x * 16;
    short2 at = frag_coord(lane);
    float2 af;
    FragTile bt;
    AccTile acc;
    for (short j = 0; j < 2; j++)
        acc.frags[j] = float2(0.0f);
    for (uint k0 = 0; k0 < s.K; k0 += 8) {
        stage(A, B, As, Bs, s, row0, col0, k0, lane);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        load_frag(af, As, 8, at);
        for (short j = 0; j < 2; j++)
            load_frag(bt.frags[j], Bs + 8 * j, 16, at);
        for (short j = 0; j < 2; j++)
            frag_mma(acc.frags[j], af, bt.frags[j], acc.frags[j]);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    store_block(C, acc, s, row0, col0, at);
}

// The same with A's fragment scaled by alpha before each product: not half values, so exact on the FP32 units.
kernel void frag_gemm_scaled(device const half* A [[buffer(0)]],
                             device const half* B [[buffer(1)]],
                             device float* C [[buffer(2)]],
                             constant GemmSize& s [[buffer(3)]],
                             constant float& alpha [[buffer(4)]],
                             uint2 tg [[threadgroup_position_in_grid]],
                             ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup half As[64];
    threadgroup half Bs[128];
    uint row0 = tg.y * 8, col0 = tg.x * 16;
    short2 at = frag_coord(lane);
    float2 af;
    FragTile bt;
    AccTile acc;
    for (short j = 0; j < 2; j++)
        acc.frags[j] = float2(0.0f);
    for (uint k0 = 0; k0 < s.K; k0 += 8) {
        stage(A, B, As, Bs, s, row0, col0, k0, lane);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        load_frag(af, As, 8, at);
        af *= alpha;
        for (short j = 0; j < 2; j++)
            load_frag(bt.frags[j], Bs + 8 * j, 16, at);
        for (short j = 0; j < 2; j++)
            frag_mma(acc.frags[j], af, bt.frags[j], acc.frags[j]);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    store_block(C, acc, s, row0, col0, at);
}

// Float inputs staged in float threadgroup memory: exact on the FP32 units.
kernel void frag_gemm_float(device const float* A [[buffer(0)]],
                            device const float* B [[buffer(1)]],
                            device float* C [[buffer(2)]],
                            constant GemmSize& s [[buffer(3)]],
                            uint2 tg [[threadgroup_position_in_grid]],
                            ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup float As[64];
    threadgroup float Bs[128];
    uint row0 = tg.y * 8, col0 = tg.x * 16;
    short2 at = frag_coord(lane);
    float2 af;
    FragTile bt;
    AccTile acc;
    for (short j = 0; j < 2; j++)
        acc.frags[j] = float2(0.0f);
    for (uint k0 = 0; k0 < s.K; k0 += 8) {
        stage(A, B, As, Bs, s, row0, col0, k0, lane);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        load_frag(af, As, 8, at);
        for (short j = 0; j < 2; j++)
            load_frag(bt.frags[j], Bs + 8 * j, 16, at);
        for (short j = 0; j < 2; j++)
            frag_mma(acc.frags[j], af, bt.frags[j], acc.frags[j]);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    store_block(C, acc, s, row0, col0, at);
}

// O (8 x 16 per threadgroup) = (A * B) * V, A and B half, V float (8 x N): the first product's operands are half
// values (tensor cores), its result is not, so the second product (and any through the same helper) stays exact.
kernel void frag_chain(device const half* A [[buffer(0)]],
                       device const half* B [[buffer(1)]],
                       device const float* V [[buffer(2)]],
                       device float* O [[buffer(3)]],
                       constant GemmSize& s [[buffer(4)]],
                       uint2 tg [[threadgroup_position_in_grid]],
                       ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup half As[64];
    threadgroup half Bs[128];
    uint row0 = tg.y * 8, col0 = tg.x * 16;
    short2 at = frag_coord(lane);
    float2 af, bf, p = float2(0.0f);
    for (uint k0 = 0; k0 < s.K; k0 += 8) { // P (8 x 8) = A (rows row0..) * B (columns 0..7)
        stage(A, B, As, Bs, s, row0, 0, k0, lane);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        load_frag(af, As, 8, at);
        load_frag(bf, Bs, 16, at);
        frag_mma(p, af, bf, p);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    simdgroup_float8x8 pm, vm, om;
    pm.thread_elements() = p;
    for (short j = 0; j < 2; j++) { // O = P * V (V: 8 x N, rows 0..7)
        simdgroup_load(vm, V + col0 + 8 * j, s.N);
        simdgroup_multiply(om, pm, vm);
        float2 o = om.thread_elements();
        for (short e = 0; e < 2; e++)
            O[(row0 + at.y) * s.N + col0 + 8 * j + at.x + e] = o[e];
    }
}
