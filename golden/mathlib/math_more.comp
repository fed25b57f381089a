#version 450
// Translated by mtl2glsl 0.1.0 from mathlib.metal, kernel math_more

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_y { float y[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_zs { float zs[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_specials { float specials[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

float mtl_sinpi(float x)
{
    // sin(pi x) of x reduced to [-1, 1] first: pi x stays accurate for large x
    float r = x - 2.0 * floor(x * 0.5 + 0.5);
    return sin(r * 3.14159265358979324);
}

float mtl_cospi(float x)
{
    // cos(pi x) of x reduced to [-1, 1] first: pi x stays accurate for large x
    float r = x - 2.0 * floor(x * 0.5 + 0.5);
    return cos(r * 3.14159265358979324);
}

float mtl_tanpi(float x)
{
    // tan(pi x) of x reduced to [-0.5, 0.5] first (tan has period pi)
    float r = x - floor(x + 0.5);
    return tan(r * 3.14159265358979324);
}

float mtl_asinpi(float x) { return atan(x, sqrt((1.0 - x) * (1.0 + x))) * 0.318309886183790672; }

float mtl_acospi(float x) { return atan(sqrt((1.0 - x) * (1.0 + x)), x) * 0.318309886183790672; }

float mtl_atanpi(float x) { return atan(x) * 0.318309886183790672; }

float mtl_atan2pi(float x, float y) { return atan(x, y) * 0.318309886183790672; }

float mtl_max3(float x, float y, float z) { return max(max(x, y), z); }

float mtl_min3(float x, float y, float z) { return min(min(x, y), z); }

float mtl_median3(float x, float y, float z) { return max(min(x, y), min(max(x, y), z)); }

float mtl_fdim(float x, float y) { return max(x - y, float(0.0)); }

float mtl_divide(float x, float y) { return x / y; }

float mtl_sincos(float x, out float c)
{
    c = cos(x);
    return sin(x);
}

bool mtl_isunordered(float x, float y) { return isnan(x) || isnan(y); }

bool mtl_isordered(float x, float y) { return !isnan(x) && !isnan(y); }

float mtl_length_squared(vec3 x) { return dot(x, x); }

float mtl_distance_squared(vec3 x, vec3 y) { return dot(x - y, x - y); }

bvec2 mtl_isunordered(vec2 x, vec2 y) { return bvec2(uvec2(isnan(x)) | uvec2(isnan(y))); }

const int MORE_OUTPUTS = 26;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise float a = x[i];
    precise float b = y[i];
    precise float z = zs[i];
    precise float s = specials[i];
    precise float c = 4.0 * a;
    uint o = uint(MORE_OUTPUTS) * i;
    out_[o + 0u] = mtl_sinpi(c);
    out_[o + 1u] = mtl_cospi(c);
    out_[o + 2u] = mtl_tanpi(0.2 * a);
    out_[o + 3u] = mtl_asinpi(0.9 * a) + mtl_acospi(0.9 * a);
    out_[o + 4u] = mtl_atanpi(c);
    out_[o + 5u] = mtl_atan2pi(a, z);
    out_[o + 6u] = mtl_max3(a, b, z);
    out_[o + 7u] = mtl_min3(a, b, z);
    out_[o + 8u] = mtl_median3(a, b, z);
    out_[o + 9u] = mtl_median3(c, a, z) + mtl_max3(a, b, z) - mtl_min3(a, b, z);
    out_[o + 10u] = mtl_fdim(a, z);
    out_[o + 11u] = mtl_divide(a, b);
    out_[o + 12u] = ldexp(b, int(c));
    int e;
    out_[o + 13u] = frexp(z * 1e+02, e);
    out_[o + 14u] = float(e);
    precise float whole;
    out_[o + 15u] = modf(c + 0.3, whole);
    out_[o + 16u] = whole;
    precise float cosine;
    out_[o + 17u] = mtl_sincos(a, cosine);
    out_[o + 18u] = cosine;
    out_[o + 19u] = mtl_isunordered(s, a) ? 1.0 : 0.0;
    out_[o + 20u] = mtl_isordered(a, s) ? 1.0 : 0.0;
    precise vec3 p = vec3(a, b, z);
    precise vec3 q = vec3(z, a, b);
    out_[o + 21u] = mtl_length_squared(p);
    out_[o + 22u] = mtl_distance_squared(p, q);
    out_[o + 23u] = reflect(p, normalize(q)).y;
    out_[o + 24u] = faceforward(p, q, vec3(1.0, 0.0, 0.0)).x;
    out_[o + 25u] = 1.5707964 * 0.31830987 + 0.70710677 * 1.442695 - float(any(mtl_isunordered(vec2(s, a), vec2(a, b))));
}
