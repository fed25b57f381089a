#include <metal_stdlib>
using namespace metal;

// C and C++ forms ggml's kernels are written in, each translated as Metal means it.

enum sort_order { ORDER_ASC, ORDER_DESC };

// Byte offsets with sizeof, the comma operator, a GNU range designator, static_assert in a body, and an
// enumerator as a template argument.
template <sort_order order>
kernel void pick(device const char* src [[buffer(0)]],
                 device float* dst [[buffer(1)]],
                 constant uint& n [[buffer(2)]],
                 uint i [[thread_position_in_grid]]) {
    static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "Metal's float4");
    device const float* row = (device const float*) (src + i * 4 * sizeof(float));
    float acc[4] = { [0 ... 3] = 0.25f };
    float lo, hi;
    lo = min(row[0], row[1]), hi = max(row[2], row[3]);
    for (int k = 0; k < 4; ++k)
        acc[k] *= row[k];
    float best = order == ORDER_ASC ? lo : hi;
    dst[i] = best + acc[0] + acc[1] + acc[2] + acc[3] + float(sizeof(half3) + alignof(short2));
}

typedef decltype(pick<ORDER_ASC>) pick_t;
template [[host_name("pick_asc")]] kernel pick_t pick<ORDER_ASC>;
template [[host_name("pick_desc")]] kernel pick_t pick<ORDER_DESC>;

// ggml's kernel_tri: the output is declared `device const char *` and written through a cast that drops const.
kernel void lower_triangle(device const char* src [[buffer(0)]],
                           device const char* dst [[buffer(1)]],
                           constant uint& cols [[buffer(2)]],
                           uint2 pos [[thread_position_in_grid]]) {
    device const float* s = (device const float*) (src + pos.y * cols * sizeof(float));
    device float* d = (device float*) ((device char*) dst + pos.y * cols * sizeof(float));
    d[pos.x] = pos.x <= pos.y ? s[pos.x] : 0.0f;
}

// ggml's chunk walk: `short cch %= chpb` with an int divisor computes in int (C) and stores the short back.
kernel void chunk_walk(device short* out [[buffer(0)]],
                       constant int& step [[buffer(1)]],
                       uint i [[thread_position_in_grid]]) {
    constexpr short chpb = 5;
    short cch = short(i % 7);
    for (int k = 0; k < 4; ++k) {
        cch += step;
        cch %= chpb;
    }
    out[i] = cch;
}

// ggml's kernel_mul_mv_id: the row function is chosen at compile time through template parameters of function
// type. The parameter types are typedefs of function types; row_fn is overloaded on them, so which row_fn the
// argument names depends on the function passed to it; the kernel's parameter type is decltype of one instance.
typedef void (row_op_t)(device const float* x, device float* y, uint row, uint n);
typedef void (row_op_tg_t)(device const float* x, device float* y, uint row, uint n, threadgroup float* shmem, ushort lane);

template <typename T>
void row_sum(device const float* x, device float* y, uint row, uint n) {
    T acc = 0;
    for (uint k = 0; k < n; ++k)
        acc += T(x[row * n + k]);
    y[row] = float(acc);
}

template <short R>
void row_max_plus(device const float* x, device float* y, uint row, uint n, threadgroup float* shmem, ushort lane) {
    shmem[lane] = x[row * n];
    for (uint k = 1; k < n; ++k)
        shmem[lane] = max(shmem[lane], x[row * n + k]);
    y[row] = shmem[lane] + R;
}

template <row_op_t op>
void row_fn(device const float* x, device float* y, uint row, uint n, threadgroup float* shmem, ushort lane) {
    op(x, y, row, n);
}

template <row_op_tg_t op>
void row_fn(device const float* x, device float* y, uint row, uint n, threadgroup float* shmem, ushort lane) {
    op(x, y, row, n, shmem, lane);
}

typedef decltype(row_fn<row_sum<float>>) row_fn_t;

template <row_fn_t fn>
kernel void rows_by_fn(device const float* x [[buffer(0)]],
                       device float* y [[buffer(1)]],
                       constant uint& n [[buffer(2)]],
                       threadgroup float* shmem [[threadgroup(0)]],
                       uint row [[thread_position_in_grid]],
                       ushort lane [[thread_index_in_threadgroup]]) {
    fn(x, y, row, n, shmem, lane);
}

// Two instances of one template whose names differ only in the function's own template arguments, called from
// one kernel: row_fn<row_sum<float>> and row_fn<row_sum<half>>.
template <row_fn_t first, row_fn_t second>
kernel void rows_pair(device const float* x [[buffer(0)]],
                      device float* y [[buffer(1)]],
                      device float* z [[buffer(2)]],
                      constant uint& n [[buffer(3)]],
                      threadgroup float* shmem [[threadgroup(0)]],
                      uint row [[thread_position_in_grid]],
                      ushort lane [[thread_index_in_threadgroup]]) {
    first(x, y, row, n, shmem, lane);
    (*second)(x, z, row, n, shmem, lane);
}

typedef decltype(rows_by_fn<row_fn<row_sum<float>>>) rows_by_fn_k;
typedef decltype(rows_pair<row_fn<row_sum<float>>, row_fn<row_sum<float>>>) rows_pair_k;

template [[host_name("rows_sum_f32")]] kernel rows_by_fn_k rows_by_fn<row_fn<row_sum<float>>>;
template [[host_name("rows_max_plus_2")]] kernel rows_by_fn_k rows_by_fn<row_fn<row_max_plus<2>>>;
template [[host_name("rows_sum_f32_f16")]] kernel rows_pair_k rows_pair<row_fn<row_sum<float>>, row_fn<row_sum<half>>>;
