#include <metal_stdlib>
using namespace metal;

// Matrices: floatCxR is C columns of R rows, column-major; in buffers each column is a vector (a float3 column
// takes 16 bytes, a half3 column 8), so a float3x3 is 48 bytes and a half3x3 24.

struct Frame {
    float scale;        // 0
    float3x3 normal;    // 16 (16-aligned): 48 bytes
    float2x2 uv;        // 64: 16 bytes
    half3x3 tint;       // 80: 24 bytes (half3 columns of 8)
    float bias;         // 104
    float2x3 bones[2];  // 112 (16-aligned): two float3 columns each, 32 bytes a matrix
};                      // 176 (16-aligned)

// Points transformed by per-instance float4x4 from a device array; normals by the float3x3 of a constant struct.
kernel void transform_points(device const float4* points [[buffer(0)]],
                             device const float4x4* transforms [[buffer(1)]],
                             constant Frame& frame [[buffer(2)]],
                             device float4* out_pos [[buffer(3)]],
                             device float3* out_normal [[buffer(4)]],
                             device half3* out_tint [[buffer(5)]],
                             constant uint& per_instance [[buffer(6)]],
                             uint i [[thread_position_in_grid]]) {
    float4x4 m = transforms[i / per_instance];
    float4 p = points[i];
    out_pos[i] = m * p * frame.scale + frame.bias;
    float3 n = frame.normal * p.xyz;
    out_normal[i] = n + float3(frame.uv * p.xy, 0.0f) + frame.bones[i % 2] * p.zw;
    out_tint[i] = frame.tint * half3(p.xyz);
}

// A view matrix in push constants; vector * matrix (a row vector) and a column read straight from it.
kernel void project(device const float4* points [[buffer(0)]],
                    constant float4x4& view [[buffer(1)]],
                    device float4* out_col [[buffer(2)]],
                    device float4* out_row [[buffer(3)]],
                    uint i [[thread_position_in_grid]]) {
    float4 p = points[i];
    out_col[i] = view * p;
    out_row[i] = p * view + view[i % 4] + float4(view[3][i % 4]);
}

// Non-square shapes: A is 2x3 (two float3 columns), B is 3x2; their products both ways, transposes,
// determinants, and the operators.
kernel void shapes(device const float2x3* as [[buffer(0)]],
                   device const float3x2* bs [[buffer(1)]],
                   device float3x3* ab [[buffer(2)]],
                   device float2x2* ba [[buffer(3)]],
                   device float3x2* at_minus_b [[buffer(4)]],
                   device float4* dets [[buffer(5)]],
                   device float4* vecs [[buffer(6)]],
                   uint i [[thread_position_in_grid]]) {
    float2x3 a = as[i];
    float3x2 b = bs[i];
    float3x3 p = a * b;
    float2x2 q = b * a;
    ab[i] = p;
    ba[i] = q;
    at_minus_b[i] = transpose(a) - b + -(0.5f * b) + b * 0.5f;
    dets[i] = float4(determinant(p), determinant(q), determinant(transpose(q)), determinant(float3x3(2.0f)));
    float3 w = a * b[0];    // float2x3 * float2 -> float3
    float2 r = w * a;       // float3 * float2x3 -> float2 (component j: dot(w, a[j]))
    vecs[i] = float4(w.zy, r.yx) + float4(a[1].xz, b[2].yx);
}

// Constructors and assignments: from columns, all scalars (column-major), diagonal, default; m[i] = v,
// m[i][j] = s, a swizzle of a column as an lvalue; compound *=, +=, -= with matrices and scalars.
kernel void build(device const float4* v [[buffer(0)]],
                  device float4x4* out [[buffer(1)]],
                  device float3x4* out34 [[buffer(2)]],
                  uint i [[thread_position_in_grid]]) {
    float4 a = v[2 * i], b = v[2 * i + 1];
    float4x4 m = float4x4(a, b, a.wzyx, b.yxwz);
    float4x4 d = float4x4(2.0f);
    float4x4 z = float4x4();
    m *= d;
    m += z;
    m -= float4x4(1.0f);
    m *= 0.25f;
    m[3] = float4(float(i), 1.0f, 2.0f, 3.0f);
    m[2][1] = -7.0f;
    m[1].zw = a.xy;
    m.columns[0].w = b.x;   // Metal's matrix has a public `columns` array too
    out[i] = m;
    float3x4 s(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    matrix<float, 3, 4> t = s * a.x;
    out34[i] = t + s;
}

// A matrix built in thread memory and accumulated with +=: the sum of outer products x_k y_k^T over a row of
// inputs (the columns of x_k y_k^T are x_k * y_k[j]).
kernel void accumulate(device const float3* xs [[buffer(0)]],
                       device const float3* ys [[buffer(1)]],
                       device float3x3* out [[buffer(2)]],
                       constant uint& k_count [[buffer(3)]],
                       uint i [[thread_position_in_grid]]) {
    float3x3 acc;
    acc = float3x3(0.0f);
    for (uint k = 0; k < k_count; k++) {
        float3 x = xs[i * k_count + k], y = ys[i * k_count + k];
        acc += float3x3(x * y.x, x * y.y, x * y.z);
    }
    out[i] = acc;
}

// half matrices: a half2x2 rotation of half2 points, and a half3x3 array read from a device buffer.
kernel void half_rotate(device const half2* pts [[buffer(0)]],
                        device const float* angles [[buffer(1)]],
                        device const half3x3* hm [[buffer(2)]],
                        device half2* out [[buffer(3)]],
                        device half3* out3 [[buffer(4)]],
                        uint i [[thread_position_in_grid]]) {
    half c = half(cos(angles[i])), s = half(sin(angles[i]));
    half2x2 rot = half2x2(half2(c, s), half2(-s, c));
    out[i] = rot * pts[i];
    half3x3 h = hm[i];
    out3[i] = h * half3(pts[i], 1.0h) + half3(float3x3(h)[0] * 0.5f);
}

// Templates and auto: the same helper instantiated for a float3x3 and a half2x2.
template <typename M, typename V>
V apply_twice(M m, V v) {
    auto mm = m * m;
    return mm * v;
}

// Threadgroup memory: each of 16 threads writes one element of a shared float4x4, then every thread
// multiplies its point by the whole matrix and by its transpose.
kernel void tg_matrix(device const float* elems [[buffer(0)]],
                      device const float4* points [[buffer(1)]],
                      device float4* out [[buffer(2)]],
                      device float* out_f [[buffer(3)]],
                      device half* out_h [[buffer(4)]],
                      uint i [[thread_position_in_grid]],
                      uint lid [[thread_index_in_threadgroup]],
                      uint gid [[threadgroup_position_in_grid]]) {
    threadgroup float4x4 shared_m;
    shared_m[lid / 4][lid % 4] = elems[gid * 16 + lid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float4x4 m = shared_m;
    float4 p = points[i];
    out[i] = m * p + transpose(shared_m) * p;
    float3x3 n3 = float3x3(m[0].xyz, m[1].xyz, m[2].xyz);
    float3 r3 = apply_twice(n3, p.xyz);
    half2 r2 = apply_twice(half2x2(half2(m[0].xy), half2(m[1].xy)), half2(p.xy));
    out_f[i] = r3.x + r3.y + r3.z;
    out_h[i] = r2.x + r2.y;
}

// A kernel template instantiated for a float4x4 and a half2x2, calling helpers overloaded on matrix types.
float corner(float3x3 m) { return m[0][0]; }
float corner(float4x4 m) { return m[3][3]; }

template <typename M, typename V>
kernel void apply(device const M* ms [[buffer(0)]],
                  device const V* vs [[buffer(1)]],
                  device V* out [[buffer(2)]],
                  uint i [[thread_position_in_grid]]) {
    M m = ms[i];
    out[i] = m * vs[i] + V(corner(float3x3(0.5f)) + corner(float4x4(0.25f)));
}
template [[host_name("apply_float4x4")]] [[kernel]] decltype(apply<float4x4, float4>) apply<float4x4, float4>;
template [[host_name("apply_half2x2")]] [[kernel]] decltype(apply<half2x2, half2>) apply<half2x2, half2>;
