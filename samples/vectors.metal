#include <metal_stdlib>
using namespace metal;

// A workout for vector types: constructors, swizzles, component-wise
// arithmetic and comparisons, select/all/any and geometric functions.
// Each thread writes 6 float4 to out and 3 int4 to iout.
kernel void vectors(device const float4* a [[buffer(0)]],
                    device const float4* b [[buffer(1)]],
                    device const int4* k [[buffer(2)]],
                    device float4* out [[buffer(3)]],
                    device int4* iout [[buffer(4)]],
                    uint i [[thread_position_in_grid]]) {
    float4 x = a[i];
    float4 y = b[i];
    int4 n = k[i];

    // Constructors: splat, mixed pieces, conversion, nested.
    float4 splat = float4(x.w);
    float4 pieces = float4(x.xy, y.z, 1.0f);
    float4 converted = float4(n);
    float2 pair = float2(y.w, x.x);
    float4 nested = float4(pair, float2(x.z, 0.5f));

    // Swizzle reads and writes.
    float4 r = x.wzyx;
    r.xz = y.xz * 2.0f;
    float4 c = float4(0.0f);
    c.rgba = x.bgra;
    c.g += pair.y;
    c.w = -c.w;
    float3 t = y.zxy;

    // Component-wise arithmetic, scalar broadcast and comparisons.
    float4 sum = x + y * 0.5f - splat / 4.0f;
    float4 prod = x * y + float4(1.0f, 2.0f, 3.0f, 4.0f);
    bool4 bigger = x > y;
    float4 larger = select(y, x, bigger);
    float4 flags = float4(x <= y);
    bool any_negative = any(x < 0.0f);
    bool all_small = all(abs(y) < float4(0.75f));

    // Geometry.
    float d = dot(x, y);
    float len = length(x.xyz);
    float3 unit = normalize(x.xyz + float3(0.0f, 0.0f, 4.0f));
    float3 cr = cross(x.xyz, t);

    // Integer vectors.
    int4 m = n * 3 - int4(1, 2, 3, 4);
    int2 ip = n.yx + int2(n.z);
    m.yw = ip;
    int4 lo = min(n, m);
    int4 bits = (n & int4(0xff)) | (m << 2) ^ int4(n.w);
    int4 neg = select(int4(0), int4(-1), n > int4(0));
    int4 eq = int4(n == m) + int4(n != int4(0)) * 10;

    out[6 * i + 0] = pieces + converted;
    out[6 * i + 1] = r + c + nested;
    out[6 * i + 2] = sum + float4(t, 0.0f);
    out[6 * i + 3] = larger + prod + flags;
    out[6 * i + 4] = float4(d, len, any_negative ? 1.0f : 0.0f, all_small ? 1.0f : 0.0f);
    out[6 * i + 5] = float4(unit + cr, float(lo.x + lo.w));
    iout[3 * i + 0] = lo;
    iout[3 * i + 1] = bits + neg;
    iout[3 * i + 2] = eq;
}
