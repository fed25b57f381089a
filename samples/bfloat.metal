#include <metal_stdlib>
using namespace metal;

// bfloat storage with arithmetic through float: y = a * x + y.
kernel void bf_axpy(device const bfloat* x [[buffer(0)]],
                    device bfloat* y [[buffer(1)]],
                    constant float& a [[buffer(2)]],
                    uint i [[thread_position_in_grid]]) {
    float xv = x[i];
    y[i] = a * xv + float(y[i]);
}

// Conversions: float -> bfloat rounds to nearest even; bfloat -> float and half are exact or rounded once;
// as_type gives the bits.
kernel void bf_convert(device const float* f [[buffer(0)]],
                       device bfloat* b [[buffer(1)]],
                       device float* back [[buffer(2)]],
                       device half* h [[buffer(3)]],
                       device ushort* bits [[buffer(4)]],
                       uint i [[thread_position_in_grid]]) {
    bfloat v = f[i];
    b[i] = v;
    back[i] = float(v) * 2.0f;
    h[i] = half(float(v));
    bits[i] = as_type<ushort>(v);
}

// Compound assignment and ++/-- on bfloat: each rounds once, to nearest even, as x = bfloat(float(x) op y).
kernel void bf_update(device bfloat* y [[buffer(0)]],
                      device const float* x [[buffer(1)]],
                      device const bfloat* s [[buffer(2)]],
                      uint i [[thread_position_in_grid]]) {
    bfloat a = y[i];
    a += x[i];
    a *= s[i];
    a -= 0.375f;
    ++a;
    a /= 4.0f;
    a--;
    y[i] += a;
}

// bfloat in a struct and in threadgroup memory: neighbours' values through a threadgroup array, summed in float.
struct Sample {
    bfloat value;
    bfloat weight;
    float bias;
};

kernel void bf_struct_tg(device const Sample* in [[buffer(0)]],
                         device bfloat* out [[buffer(1)]],
                         uint i [[thread_position_in_grid]],
                         uint l [[thread_position_in_threadgroup]],
                         uint n [[threads_per_threadgroup]]) {
    threadgroup bfloat tile[64];
    Sample p = in[i];
    tile[l] = p.value * p.weight;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float left = tile[(l + n - 1) % n];
    out[i] = left + float(tile[l]) + p.bias;
}

// One template instantiated for float, half and bfloat: the sum of squares of a row, accumulated in float,
// scaled and stored as T.
template <typename T>
kernel void row_norm(device const T* x [[buffer(0)]],
                     device T* out [[buffer(1)]],
                     constant uint& cols [[buffer(2)]],
                     uint row [[thread_position_in_grid]]) {
    float acc = 0.0f;
    for (uint c = 0; c < cols; c++) {
        float v = float(x[row * cols + c]);
        acc += v * v;
    }
    out[row] = T(sqrt(acc / float(cols)));
}

template [[host_name("row_norm_float")]] [[kernel]] decltype(row_norm<float>) row_norm<float>;
template [[host_name("row_norm_half")]] [[kernel]] decltype(row_norm<half>) row_norm<half>;
template [[host_name("row_norm_bfloat")]] [[kernel]] decltype(row_norm<bfloat>) row_norm<bfloat>;

// bfloat4 and bfloat3: 16 bits a component in memory, arithmetic through float4; compound assignment rounds each
// component once; components by .x and [i]; a struct of a bfloat3 (8 bytes in Metal) and a bfloat4; a threadgroup
// array of bfloat4.
struct Frame {
    bfloat3 dir;
    bfloat4 color;
    float gain;
};

kernel void bf4_elementwise(device const bfloat4* x [[buffer(0)]],
                            device bfloat4* y [[buffer(1)]],
                            device Frame* frames [[buffer(2)]],
                            device float* sums [[buffer(3)]],
                            constant float& a [[buffer(4)]],
                            uint i [[thread_position_in_grid]],
                            uint l [[thread_position_in_threadgroup]]) {
    threadgroup bfloat4 tile[32];
    bfloat4 v = x[i];
    y[i] *= a;
    y[i] += v;
    tile[l] = bfloat4(v.w, v[2], v.y, 1.0f);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    Frame f = frames[i];
    float3 d = float3(f.dir.x, f.dir.y, f.dir.z);
    f.color = float4(d, f.gain) * float4(tile[l]);
    f.dir++;
    frames[i] = f;
    sums[i] = dot(float4(v), float4(1.0f)) + f.color[3];
}

// bfloat arithmetic as Metal types it: bfloat op bfloat is a bfloat (rounded after each operation), an integer
// operand becomes a bfloat first, bfloat op float is a float.
kernel void bf_arith(device const bfloat* a [[buffer(0)]],
                     device const bfloat* b [[buffer(1)]],
                     device const int* k [[buffer(2)]],
                     device bfloat* two_roundings [[buffer(3)]],
                     device float* mixed [[buffer(4)]],
                     device bfloat* with_int [[buffer(5)]],
                     device uint* flags [[buffer(6)]],
                     uint i [[thread_position_in_grid]]) {
    bfloat x = a[i], y = b[i];
    two_roundings[i] = x * y + x;
    mixed[i] = x * 1.5f + y;
    with_int[i] = x + k[i];
    flags[i] = uint(x < y) | uint(x == y) << 1 | uint(x < k[i]) << 2 | uint(-x > y) << 3;
}

// Program-scope bfloat constants, as MLX's Limits<bfloat16_t> declares them (static constexpr constant members):
// GLSL wants a constant initializer, so each is its bits, rounded to nearest even at translation.
template <typename T>
struct BfLimits;
template <>
struct BfLimits<bfloat> {
    static constexpr constant bfloat max = metal::numeric_limits<bfloat>::infinity();
    static constexpr constant bfloat min = -metal::numeric_limits<bfloat>::infinity();
    static constexpr constant bfloat finite_max = metal::numeric_limits<bfloat>::max();
    static constexpr constant bfloat finite_min = -metal::numeric_limits<bfloat>::max();
};
constant bfloat bf_third = bfloat(0.33333334f);
constant bfloat bf_tie = static_cast<bfloat>(1.00390625f); // 1 + 2^-8: halfway between two bfloats, rounds to even (1.0)

kernel void bf_limits(device const bfloat* x [[buffer(0)]],
                      device bfloat* row_max [[buffer(1)]],
                      device bfloat* consts [[buffer(2)]],
                      uint i [[thread_position_in_grid]]) {
    bfloat m = BfLimits<bfloat>::min;
    for (int k = 0; k < 8; k++)
        m = bfloat(metal::max(float(x[i * 8 + k]), float(m))); // GLSL's max(): the constant `max` is renamed
    row_max[i] = m;
    if (i == 0) {
        consts[0] = BfLimits<bfloat>::max;
        consts[1] = BfLimits<bfloat>::min;
        consts[2] = BfLimits<bfloat>::finite_max;
        consts[3] = BfLimits<bfloat>::finite_min;
        consts[4] = bf_third;
        consts[5] = bf_tie;
    }
}
