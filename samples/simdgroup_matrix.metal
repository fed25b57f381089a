#include <metal_stdlib>
#include <metal_simdgroup_matrix>
using namespace metal;
// SNAPSHOT: --subgroup-size=8
// SNAPSHOT: --subgroup-size=64 --virtual-subgroups

// SIMD-group matrices (8x8, spread over the 32 lanes of a SIMD-group, two elements a lane). Every kernel here is
// dispatched with threadgroups of whole SIMD-groups; a grid that is not a multiple of the threadgroup makes a
// last threadgroup with fewer SIMD-groups.

// The layout: each lane writes lane-dependent values into its thread_elements() and simdgroup_store puts the
// matrix in memory (row-major, 8 elements a row); then a matrix loaded from memory is read back through
// thread_elements(). SIMD-group g of the grid works on matrix g.
template <typename T>
kernel void sgm_layout(device const T* in [[buffer(0)]],
                       device T* stored [[buffer(1)]],
                       device T* elems [[buffer(2)]],
                       uint tid [[thread_position_in_grid]],
                       ushort lane [[thread_index_in_simdgroup]]) {
    uint g = tid / 32;
    simdgroup_matrix<T, 8, 8> m;
    m.thread_elements()[0] = T(float(lane * 2) + 64.0f * float(g));
    m.thread_elements()[1] = T(float(lane * 2 + 1) + 64.0f * float(g));
    simdgroup_store(m, stored + 64 * g, 8);

    simdgroup_matrix<T, 8, 8> n;
    simdgroup_load(n, in + 64 * g);
    elems[2 * tid] = n.thread_elements()[0];
    elems[2 * tid + 1] = n.thread_elements().y;
}

template [[host_name("sgm_layout_float")]] kernel void sgm_layout<float>(device const float*, device float*, device float*, uint, ushort);
template [[host_name("sgm_layout_half")]] kernel void sgm_layout<half>(device const half*, device half*, device half*, uint, ushort);
template [[host_name("sgm_layout_bfloat")]] kernel void sgm_layout<bfloat>(device const bfloat*, device bfloat*, device bfloat*, uint, ushort);

struct Place {
    uint stride;    // elements per row
    uint2 origin;   // (column, row) of the matrix's first element
    bool transpose;
};

// Loads and stores with element stride, origin and transpose, from and to device and threadgroup memory: the
// matrix at `from` in src goes through a threadgroup tile (placed as `via`) back to dst at `to`.
kernel void sgm_copy(device const float* src [[buffer(0)]],
                     device float* dst [[buffer(1)]],
                     constant Place& from [[buffer(2)]],
                     constant Place& via [[buffer(3)]],
                     constant Place& to [[buffer(4)]],
                     ushort tid [[thread_index_in_threadgroup]]) {
    threadgroup float tile[24 * 24];
    for (uint i = tid; i < 24 * 24; i += 32)
        tile[i] = -1.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    simdgroup_float8x8 m;
    simdgroup_load(m, src, from.stride, ulong2(from.origin), from.transpose);
    simdgroup_store(m, tile, via.stride, ulong2(via.origin), via.transpose);
    simdgroup_barrier(mem_flags::mem_threadgroup);
    simdgroup_float8x8 back;
    simdgroup_load(back, (threadgroup const float*)tile, via.stride, ulong2(via.origin), via.transpose);
    simdgroup_store(back, dst, to.stride, ulong2(to.origin), to.transpose);
}

// Every constructor form, copies, assignment, arrays of matrices, products of mixed element types.
// out holds 7 matrices per SIMD-group.
kernel void sgm_forms(device const float* in [[buffer(0)]],
                      device float* out [[buffer(1)]],
                      uint tid [[thread_position_in_grid]]) {
    uint g = tid / 32;
    device float* o = out + 7 * 64 * g;
    simdgroup_float8x8 loaded;
    simdgroup_load(loaded, in + 64 * g);
    simdgroup_float8x8 diag = simdgroup_float8x8(2.0f);                       // 2 on the diagonal
    simdgroup_float8x8 acc(0);                                                 // zeros
    simdgroup_float8x8 fill = make_filled_simdgroup_matrix<float, 8>(1.5f);  // 1.5 everywhere
    simdgroup_float8x8 m[3];
    m[0] = diag;
    simdgroup_float8x8 copy = fill;
    m[1] = copy;
    simdgroup_multiply(m[2], loaded, m[0]);                    // 2 * loaded
    simdgroup_multiply_accumulate(acc, m[0], loaded, m[1]);   // 2 * loaded + 1.5
    simdgroup_half8x8 h = make_filled_simdgroup_matrix<half, 8, 8>(half(0.25f));
    simdgroup_half8x8 hd = simdgroup_half8x8(half(4.0f));
    simdgroup_float8x8 mixed;
    simdgroup_multiply_accumulate(mixed, h, hd, loaded);      // 1 + loaded, half operands, float accumulator
    simdgroup_half8x8 hr;
    simdgroup_multiply(hr, hd, h);                             // 1 everywhere, in half
    simdgroup_store(diag, o, 8);
    simdgroup_store(m[1], o + 64, 8);
    simdgroup_store(m[2], o + 128, 8);
    simdgroup_store(acc, o + 192, 8);
    simdgroup_store(mixed, o + 256, 8);
    simdgroup_float8x8 hf = make_filled_simdgroup_matrix<float, 8>(0.0f);
    hf.thread_elements() = float2(hr.thread_elements());
    simdgroup_store(hf, o + 320, 8);
    simdgroup_float8x8 chain = (m[0] * loaded) * m[0];          // the product as a value: 4 * loaded
    simdgroup_store(chain, o + 384, 8);
}

// Matrices through helpers (by reference, by value, returned, as MLX's BaseMMAFrag::mma passes them) and in a struct.
static void mma(thread simdgroup_float8x8& d, simdgroup_float8x8 a, thread const simdgroup_float8x8& b) {
    simdgroup_multiply_accumulate(d, a, b, d);
}

static simdgroup_float8x8 twice(simdgroup_float8x8 m) {
    simdgroup_float8x8 r;
    simdgroup_multiply(r, m, simdgroup_float8x8(2.0f));
    return r;
}

// MLX's BaseMMAFrag::mma on fragments (a lane's two elements): into matrices through reinterpret_cast of
// thread_elements() and back.
static void mma_frags(thread float2& d, thread float2& a, thread float2& b, thread float2& c) {
    simdgroup_float8x8 dm, am, bm, cm;
    reinterpret_cast<thread float2&>(am.thread_elements()) = a;
    reinterpret_cast<thread float2&>(bm.thread_elements()) = b;
    reinterpret_cast<thread float2&>(cm.thread_elements()) = c;
    simdgroup_multiply_accumulate(dm, am, bm, cm);
    d = reinterpret_cast<thread float2&>(dm.thread_elements());
}

struct Tile {
    simdgroup_float8x8 m[2];
    float scale;
};

// out holds 4 matrices per SIMD-group: loaded * loaded + loaded, 2 * loaded, 3 * loaded (through a struct), and
// loaded * loaded + loaded again on fragments
kernel void sgm_helpers(device const float* in [[buffer(0)]],
                        device float* out [[buffer(1)]],
                        uint tid [[thread_position_in_grid]]) {
    uint g = tid / 32;
    simdgroup_float8x8 x;
    simdgroup_load(x, in + 64 * g);
    simdgroup_float8x8 d = x;
    mma(d, x, x);
    simdgroup_store(d, out + 256 * g, 8);
    simdgroup_store(twice(x), out + 256 * g + 64, 8);
    float2 fx = x.thread_elements(), fd;
    mma_frags(fd, fx, fx, fx);
    simdgroup_float8x8 back;
    back.thread_elements() = fd;
    simdgroup_store(back, out + 256 * g + 192, 8);
    if (g < 64) { // the same in every thread of a SIMD-group, not known to be so in the whole threadgroup
        Tile t;
        t.scale = 3.0f;
        t.m[0] = x;
        t.m[1] = simdgroup_float8x8(t.scale);
        simdgroup_multiply(t.m[0], t.m[0], t.m[1]);
        simdgroup_store(twice(t.m[0]) * simdgroup_float8x8(0.5f), out + 256 * g + 128, 8);
    }
}

// ggml's kernel_mul_mm staging: threadgroup bytes read as half by simdgroup_load, written as half and as half2x4 (a
// Metal matrix of two half4 columns: one row of B), then reused as float for the product.
kernel void sgm_shmem(device const float* a [[buffer(0)]],
                      device const float2x4* b [[buffer(1)]],
                      device float* out [[buffer(2)]],
                      threadgroup char* shmem [[threadgroup(0)]],
                      ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup half* sa = (threadgroup half*)shmem;
    threadgroup half* sb = (threadgroup half*)(shmem + 128);
    for (ushort i = lane; i < 64; i += 32)
        sa[i] = half(a[i]);
    if (lane < 8)
        *(threadgroup half2x4*)(sb + 8 * lane) = half2x4(b[lane]);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    simdgroup_half8x8 ma, mb;
    simdgroup_load(ma, sa);
    simdgroup_load(mb, sb);
    simdgroup_float8x8 mc;
    simdgroup_multiply(mc, ma, mb);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    threadgroup float* t = (threadgroup float*)shmem;
    simdgroup_store(mc, t, 8);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (ushort i = lane; i < 64; i += 32)
        out[i] = t[i];
}

// A tiled GEMM C = A * B (A M x K, B K x N, row-major; C float) for any M, N, K: threadgroups of 4 SIMD-groups
// compute 32x32 tiles of C, each SIMD-group a 16x16 quarter (2x2 matrices), K 16 at a time through zero-padded
// threadgroup tiles; the result goes through threadgroup memory to the parts of the tile inside C.
struct GemmShape {
    uint M, N, K;
};

template <typename T>
kernel void gemm_tiled(device const T* A [[buffer(0)]],
                       device const T* B [[buffer(1)]],
                       device float* C [[buffer(2)]],
                       constant GemmShape& shape [[buffer(3)]],
                       uint2 group [[threadgroup_position_in_grid]],
                       ushort tid [[thread_index_in_threadgroup]],
                       ushort sg [[simdgroup_index_in_threadgroup]]) {
    threadgroup T As[32 * 16];
    threadgroup T Bs[16 * 32];
    threadgroup float Cs[32 * 32];
    uint row0 = group.y * 32, col0 = group.x * 32;
    ushort sr = (sg / 2) * 16, sc = (sg % 2) * 16;
    simdgroup_float8x8 acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            acc[i][j] = simdgroup_float8x8(0);
    for (uint k0 = 0; k0 < shape.K; k0 += 16) {
        for (uint i = tid; i < 32 * 16; i += 128) {
            uint r = i / 16, c = i % 16;
            As[i] = row0 + r < shape.M && k0 + c < shape.K ? A[(row0 + r) * shape.K + k0 + c] : T(0.0f);
            uint br = i / 32, bc = i % 32;
            Bs[i] = k0 + br < shape.K && col0 + bc < shape.N ? B[(k0 + br) * shape.N + col0 + bc] : T(0.0f);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (ushort kk = 0; kk < 16; kk += 8) {
            simdgroup_matrix<T, 8, 8> a[2], b[2];
            for (int i = 0; i < 2; i++) {
                simdgroup_load(a[i], As, 16, ulong2(kk, sr + 8 * i));
                simdgroup_load(b[i], Bs + sc + 8 * i, 32, ulong2(0, kk));
            }
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++)
                    simdgroup_multiply_accumulate(acc[i][j], a[i], b[j], acc[i][j]);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            simdgroup_store(acc[i][j], Cs + (sr + 8 * i) * 32 + sc + 8 * j, 32);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint i = tid; i < 32 * 32; i += 128) {
        uint r = row0 + i / 32, c = col0 + i % 32;
        if (r < shape.M && c < shape.N)
            C[r * shape.N + c] = Cs[i];
    }
}

template [[host_name("gemm_tiled_float")]] kernel void gemm_tiled<float>(device const float*, device const float*, device float*, constant GemmShape&, uint2, ushort, ushort);
template [[host_name("gemm_tiled_half")]] kernel void gemm_tiled<half>(device const half*, device const half*, device float*, constant GemmShape&, uint2, ushort, ushort);
template [[host_name("gemm_tiled_bfloat")]] kernel void gemm_tiled<bfloat>(device const bfloat*, device const bfloat*, device float*, constant GemmShape&, uint2, ushort, ushort);

// D = alpha * A * B^T + beta * C, written the way MLX's steel GEMM writes its result: each lane computes where
// its two elements lie (Apple's layout) and reads and scales thread_elements() itself. B is N x K (row-major),
// loaded transposed from threadgroup memory. One SIMD-group computes a 16x16 tile.
struct Epilogue {
    uint M, N, K;
    float alpha, beta;
};

kernel void gemm_epilogue(device const half* A [[buffer(0)]],
                          device const half* B [[buffer(1)]],
                          device const float* C [[buffer(2)]],
                          device float* D [[buffer(3)]],
                          constant Epilogue& p [[buffer(4)]],
                          uint2 group [[threadgroup_position_in_grid]],
                          ushort lane [[thread_index_in_simdgroup]]) {
    threadgroup half As[16 * 8];
    threadgroup half Bs[16 * 8];
    uint row0 = group.y * 16, col0 = group.x * 16;
    simdgroup_float8x8 acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            acc[i][j] = make_filled_simdgroup_matrix<float, 8>(0.0f);
    for (uint k0 = 0; k0 < p.K; k0 += 8) {
        for (uint i = lane; i < 16 * 8; i += 32) {
            uint r = i / 8, c = i % 8;
            As[i] = row0 + r < p.M && k0 + c < p.K ? A[(row0 + r) * p.K + k0 + c] : half(0.0f);
            Bs[i] = col0 + r < p.N && k0 + c < p.K ? B[(col0 + r) * p.K + k0 + c] : half(0.0f);
        }
        simdgroup_barrier(mem_flags::mem_threadgroup);
        simdgroup_half8x8 a[2], b[2];
        for (int i = 0; i < 2; i++) {
            simdgroup_load(a[i], As + 64 * i, 8);
            simdgroup_load(b[i], Bs + 64 * i, 8, 0, true);
        }
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                simdgroup_multiply_accumulate(acc[i][j], a[i], b[j], acc[i][j]);
        simdgroup_barrier(mem_flags::mem_threadgroup);
    }
    // this lane's place in each 8x8 matrix, as MLX's BaseMMAFrag::get_coord computes it
    ushort qid = lane / 4;
    ushort fm = (qid & 4) + (lane / 2) % 4;
    ushort fn = (qid & 2) * 2 + (lane % 2) * 2;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            float2 e = acc[i][j].thread_elements() * p.alpha;
            uint r = row0 + 8 * i + fm;
            for (int k = 0; k < 2; k++) {
                uint c = col0 + 8 * j + fn + k;
                if (r < p.M && c < p.N)
                    D[r * p.N + c] = e[k] + p.beta * C[r * p.N + c];
            }
        }
}

// An attention block: O = softmax(Q K^T * scale) V, one SIMD-group per 8 query rows (head dimension 16), keys 8 at
// a time with an online softmax: S = Q K^T from K loaded transposed, each lane's row maximum and sum from the 4
// lanes that share its row (shuffles across lanes 1 and 8 apart: Apple's layout), P written into a float matrix
// through thread_elements(), O rescaled through thread_elements() and accumulated as P V (float times half).
// Queries and keys past the ends are zero-padded in threadgroup memory; keys past the end are masked.
struct AttnShape {
    uint Lq, Lk;
    float scale;
};

kernel void attention_block(device const half* Q [[buffer(0)]],
                            device const half* K [[buffer(1)]],
                            device const half* V [[buffer(2)]],
                            device float* O [[buffer(3)]],
                            constant AttnShape& p [[buffer(4)]],
                            uint tid [[thread_position_in_grid]],
                            ushort lane [[thread_index_in_simdgroup]],
                            ushort sg [[simdgroup_index_in_threadgroup]]) {
    threadgroup half tq[2 * 128];
    threadgroup half tk[2 * 128];
    threadgroup half tv[2 * 128];
    threadgroup half* myq = tq + 128 * sg;
    threadgroup half* myk = tk + 128 * sg;
    threadgroup half* myv = tv + 128 * sg;
    uint q0 = (tid / 32) * 8;
    ushort qid = lane / 4;
    ushort row = (qid & 4) + (lane / 2) % 4, col = (qid & 2) * 2 + (lane % 2) * 2;
    for (uint i = lane; i < 128; i += 32)
        myq[i] = q0 + i / 16 < p.Lq ? Q[(q0 + i / 16) * 16 + i % 16] : half(0.0f);
    simdgroup_barrier(mem_flags::mem_threadgroup);
    simdgroup_half8x8 q[2];
    simdgroup_load(q[0], myq, 16);
    simdgroup_load(q[1], myq + 8, 16);
    simdgroup_float8x8 o[2] = {make_filled_simdgroup_matrix<float, 8>(0.0f), make_filled_simdgroup_matrix<float, 8>(0.0f)};
    float m = -INFINITY, l = 0.0f; // this lane's row: running maximum and sum
    for (uint k0 = 0; k0 < p.Lk; k0 += 8) {
        for (uint i = lane; i < 128; i += 32) {
            uint key = k0 + i / 16;
            myk[i] = key < p.Lk ? K[key * 16 + i % 16] : half(0.0f);
            myv[i] = key < p.Lk ? V[key * 16 + i % 16] : half(0.0f);
        }
        simdgroup_barrier(mem_flags::mem_threadgroup);
        simdgroup_float8x8 s = make_filled_simdgroup_matrix<float, 8>(0.0f);
        for (int d = 0; d < 2; d++) {
            simdgroup_half8x8 kt; // K^T: row = dimension, column = key
            simdgroup_load(kt, myk + 8 * d, 16, 0, true);
            simdgroup_multiply_accumulate(s, q[d], kt, s);
        }
        float2 e = s.thread_elements() * p.scale;
        if (k0 + col >= p.Lk)
            e.x = -INFINITY;
        if (k0 + col + 1 >= p.Lk)
            e.y = -INFINITY;
        float mx = max(e.x, e.y);
        mx = max(mx, simd_shuffle_xor(mx, 1));
        mx = max(mx, simd_shuffle_xor(mx, 8));
        float m_new = max(m, mx);
        float2 pe = exp(e - m_new);
        float rs = pe.x + pe.y;
        rs += simd_shuffle_xor(rs, 1);
        rs += simd_shuffle_xor(rs, 8);
        float corr = exp(m - m_new);
        l = l * corr + rs;
        m = m_new;
        simdgroup_float8x8 pm;
        pm.thread_elements() = pe;
        for (int j = 0; j < 2; j++) {
            o[j].thread_elements() *= corr;
            simdgroup_half8x8 vb;
            simdgroup_load(vb, myv + 8 * j, 16);
            simdgroup_multiply_accumulate(o[j], pm, vb, o[j]);
        }
        simdgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (q0 + row < p.Lq)
        for (int j = 0; j < 2; j++) {
            float2 r = o[j].thread_elements() / l;
            O[(q0 + row) * 16 + 8 * j + col] = r.x;
            O[(q0 + row) * 16 + 8 * j + col + 1] = r.y;
        }
}
