#include <metal_stdlib>
using namespace metal;

// Function constants of every scalar type Metal libraries use, at indices anywhere in Metal's range, written as
// ggml writes them (`[[function_constant(FC_BIN + 1)]]` with FC_BIN 1300). Each kernel numbers the constants it
// reads itself (specialization constants 100, 102, ...: docs/interfaces.md); the runtime finds them by index.
#define FC_BIN 1300
#define FC_ROWS 60000

constant short FC_bin_op [[function_constant(FC_BIN + 0)]];   // 0 add, 1 sub, 2 mul
constant short FC_bin_f [[function_constant(FC_BIN + 1)]];    // how many operands are fused
constant bool FC_bin_rb [[function_constant(FC_BIN + 2)]];    // broadcast the second operand's row
constant ushort FC_rows_n [[function_constant(FC_ROWS)]];
constant uchar FC_shift [[function_constant(FC_ROWS + 1)]];
constant char FC_bias [[function_constant(2 * 3)]];
constant half FC_scale [[function_constant(7)]];
constant uint FC_big [[function_constant(0x10000 - 1)]];

// ggml's binary op: the operation and the fusion count chosen by short constants.
kernel void bin_op(device const float* a [[buffer(0)]],
                   device const float* b [[buffer(1)]],
                   device float* dst [[buffer(2)]],
                   constant uint& cols [[buffer(3)]],
                   uint i [[thread_position_in_grid]]) {
    float x = a[i];
    float y = FC_bin_rb ? b[i % cols] : b[i];
    float r = x;
    for (short k = 0; k < FC_bin_f; ++k) {
        if (FC_bin_op == 0)
            r += y;
        else if (FC_bin_op == 1)
            r -= y;
        else
            r *= y;
    }
    dst[i] = r;
}

// 8- and 16-bit unsigned and signed constants, half, and indices up to 65535; `ushort3` thread attributes
// (the threadgroup size is a specialization constant too).
kernel void narrow_constants(device int* dst [[buffer(0)]],
                             device half* scaled [[buffer(1)]],
                             ushort3 ntg [[threads_per_threadgroup]],
                             ushort tid [[thread_index_in_threadgroup]],
                             uint i [[thread_position_in_grid]]) {
    threadgroup_barrier(mem_flags::mem_threadgroup);
    ushort rows = FC_rows_n;
    int v = int(i % rows) << FC_shift;
    v += FC_bias;
    v += is_function_constant_defined(FC_big) ? int(FC_big & 0xffffu) : -1;
    dst[i] = v + int(ntg.x) * 1000 + int(tid) * 100000;
    scaled[i] = half(i % 64) * FC_scale;
}

// Conditions on locals that hold function constants, as ggml writes them (kernel_flash_attn_ext_blk: `const int32_t
// C = FC_...; if ((C > NW || Q > 1) && res == 0)`; the 64 kernel_mul_mv_ext_*: `const short nxpsg = FC_...;
// if (nxpsg >= 16)`), a local computed from one, and a program-scope constant computed from one. clang folds such
// conditions through the initializers with the placeholder 0 it is given for a function constant: the branches
// must stay, since the values come at pipeline creation.
constant int FC_tile [[function_constant(40)]];
constant short FC_lanes [[function_constant(41)]];
constant bool FC_tile_big = FC_tile * 2 > 64;

kernel void fc_locals(device const int* src [[buffer(0)]],
                      device int* dst [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    const int C = FC_tile;
    const short lanes = FC_lanes;
    constexpr short NW = 32;
    const int twice = 2 * C;
    int res = src[i];
    if ((C > NW || lanes > 1) && res >= 0)
        res += 1000;
    if (lanes >= 16)
        res += 100;
    if (twice >= 8)
        res += 10;
    if (FC_tile_big)
        res += 1;
    dst[i] = res;
}
