#include <metal_stdlib>
using namespace metal;

// Loop pragmas as the libraries write them, and copies of structs of bytes (MLX's BlockLoader).
// A pragma that unrolls wholly becomes GLSL's [[unroll]] and one that forbids unrolling [[dont_unroll]]
// (GL_EXT_control_flow_attributes); a count of more than one has no GLSL form and is dropped, as is a pragma whose
// count names something the preprocessor cannot see. The results never depend on the pragmas.

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define STEEL_PRAGMA_UNROLL _Pragma("clang loop unroll(full)")
#define STEEL_PRAGMA_NO_UNROLL _Pragma("clang loop unroll(disable)")
#define FOR_UNROLL(x) _Pragma("clang loop unroll(full)") for (x)

template <typename T, int N>
T dot_unrolled(thread const T* a, device const T* b) {
    T s = 0;
    STEEL_PRAGMA_UNROLL
    for (int i = 0; i < N; i++)
        s += a[i] * b[i];
    return s;
}

// out[t] = sum over i of w[i] * x[8t + i] (i < 8), then plus the number of halvings of t + 1 to 0 (a while loop)
// and of steps of 3 up to 9 (a do loop), and minus the first 4 of x[8t..] again with a counted pragma
kernel void pragma_forms(device const float* x [[buffer(0)]],
                         device const float* w [[buffer(1)]],
                         device float* out [[buffer(2)]],
                         uint t [[thread_position_in_grid]]) {
    float v[8];
    #pragma unroll
    for (int i = 0; i < 8; i++)
        v[i] = x[8 * t + i];
    float s = dot_unrolled<float, 8>(v, w);
    uint n = t + 1;
    #pragma nounroll
    while (n > 0) {
        s += 1;
        n /= 2;
    }
    int k = 0;
    STEEL_PRAGMA_NO_UNROLL
    do {
        s += 1;
        k += 3;
    } while (k < 9);
    #pragma unroll(4)
    for (int i = 0; i < 4; i++)
        s -= v[i];
    #pragma unroll(MIN(2, 4))
    for (int i = 4; i < 8; i++)
        s -= 0.5f * v[i];
    FOR_UNROLL(int i = 0; i < 2; i++) { s += 2 * v[i]; }
    out[t] = s;
}

// MLX's BlockLoader: each thread copies its READS halves of a row into threadgroup memory as one struct of bytes,
// then the rows are written out doubled. `shift` moves the source by whole halves (0 to 7), so that the buffer's
// reads are misaligned as vectors for most shifts: the struct of bytes may lie at any byte.
constant constexpr int READS = 8, COLS = 4, ROWS = 16, LD = COLS * READS + 8;
struct ReadVector { uint8_t v[sizeof(half) * READS]; };

kernel void byte_struct_copy(device const half* src [[buffer(0)]],
                             device half* out [[buffer(1)]],
                             constant uint& shift [[buffer(2)]],
                             ushort tid [[thread_index_in_threadgroup]],
                             uint group [[threadgroup_position_in_grid]]) {
    threadgroup half tile[ROWS * LD];
    const ushort r = tid / COLS, c = (tid % COLS) * READS;
    device const half* from = src + shift + group * ROWS * COLS * READS;
    *((threadgroup ReadVector*)(&tile[r * LD + c])) = *((const device ReadVector*)(&from[r * COLS * READS + c]));
    threadgroup_barrier(mem_flags::mem_threadgroup);
    STEEL_PRAGMA_UNROLL
    for (int i = 0; i < READS; i++)
        out[group * ROWS * COLS * READS + r * COLS * READS + c + i] = tile[r * LD + c + i] * 2;
}
