#version 450
// Translated by mtl2glsl 0.1.0 from vectors.metal, kernel vectors

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { vec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { vec4 b[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_k { ivec4 k[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_ { precise vec4 out_[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_iout { ivec4 iout[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise vec4 x = a[i];
    precise vec4 y = b[i];
    ivec4 n = k[i];
    precise vec4 splat = vec4(x.w);
    precise vec4 pieces = vec4(x.xy, y.z, 1.0);
    precise vec4 converted = vec4(n);
    precise vec2 pair = vec2(y.w, x.x);
    precise vec4 nested = vec4(pair, vec2(x.z, 0.5));
    precise vec4 r = x.wzyx;
    r.xz = y.xz * 2.0;
    precise vec4 c = vec4(0.0);
    c.rgba = x.bgra;
    c.g += pair.y;
    c.w = -c.w;
    precise vec3 t = y.zxy;
    precise vec4 sum = x + y * 0.5 - splat / 4.0;
    precise vec4 prod = x * y + vec4(1.0, 2.0, 3.0, 4.0);
    bvec4 bigger = greaterThan(x, y);
    precise vec4 larger = mix(y, x, bigger);
    precise vec4 flags = vec4(lessThanEqual(x, y));
    bool any_negative = any(lessThan(x, vec4(0.0)));
    bool all_small = all(lessThan(abs(y), vec4(0.75)));
    precise float d = dot(x, y);
    precise float len = length(x.xyz);
    precise vec3 unit = normalize(x.xyz + vec3(0.0, 0.0, 4.0));
    precise vec3 cr = cross(x.xyz, t);
    ivec4 m = n * 3 - ivec4(1, 2, 3, 4);
    ivec2 ip = n.yx + ivec2(n.z);
    m.yw = ip;
    ivec4 lo = min(n, m);
    ivec4 bits = (n & ivec4(255)) | (m << 2) ^ ivec4(n.w);
    ivec4 neg = mix(ivec4(0), ivec4(-1), greaterThan(n, ivec4(0)));
    ivec4 eq = ivec4(equal(n, m)) + ivec4(notEqual(n, ivec4(0))) * 10;
    out_[6u * i + 0u] = pieces + converted;
    out_[6u * i + 1u] = r + c + nested;
    out_[6u * i + 2u] = sum + vec4(t, 0.0);
    out_[6u * i + 3u] = larger + prod + flags;
    out_[6u * i + 4u] = vec4(d, len, any_negative ? 1.0 : 0.0, all_small ? 1.0 : 0.0);
    out_[6u * i + 5u] = vec4(unit + cr, float(lo.x + lo.w));
    iout[3u * i + 0u] = lo;
    iout[3u * i + 1u] = bits + neg;
    iout[3u * i + 2u] = eq;
}
