#version 450
// Translated by mtl2glsl 0.1.0 from mathlib.metal, kernel math_float

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

float mtl_copysign(float x, float y)
{
    return uintBitsToFloat((floatBitsToUint(x) & 0x7fffffffu) | (floatBitsToUint(y) & 0x80000000u));
}

float mtl_exp10(float x) { return exp2(x * 3.3219280948873623); }

float mtl_log10(float x) { return log2(x) * 0.30102999566398120; }

float mtl_asin(float x) { return atan(x, sqrt((1.0 - x) * (1.0 + x))); }

float mtl_acos(float x) { return atan(sqrt((1.0 - x) * (1.0 + x)), x); }

float mtl_tanh(float x)
{
    // tanh without overflow for large |x| and without cancellation near 0 (a select, not mix:
    // x + (y - x) * 1 loses y's precision when x is large)
    float a = min(abs(x), float(10.0));
    float a2 = a * a;
    float small = a * (1.0 + a2 * (-1.0 / 3.0 + a2 * (2.0 / 15.0 + a2 * (-17.0 / 315.0 + a2 * (62.0 / 2835.0)))));
    float large = 1.0 - 2.0 / (exp(2.0 * a) + 1.0);
    return sign(x) * (a >= 0.3 ? large : small);
}

float mtl_round(float x)
{
    // C round: halfway cases away from zero
    float t = trunc(x);
    return t + sign(x) * step(0.5, abs(x - t));
}

float mtl_fract(float x) { return min(x - floor(x), float(0.99999994)); }

float mtl_fmod(float x, float y) { return x - y * trunc(x / y); }

bool mtl_isfinite(float x) { return abs(x) <= 3.4028234663852886e38; }

bool mtl_signbit(float x) { return (floatBitsToUint(x) >> 31) != 0u; }

const int MATH_OUTPUTS = 52;

precise float erf_approx(float x)
{
    precise float t = 1.0 / (1.0 + 0.3275911 * abs(x));
    precise float poly = t * (0.2548296 + t * (-0.28449672 + t * (1.4214138 + t * (-1.4531521 + t * 1.0614054))));
    return mtl_copysign(1.0 - poly * exp(-x * x), x);
}

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
    uint o = uint(MATH_OUTPUTS) * i;
    out_[o + 0u] = abs(a);
    out_[o + 1u] = min(a, z);
    out_[o + 2u] = max(a, z);
    out_[o + 3u] = clamp(a, -0.5, 0.5);
    out_[o + 4u] = mix(a, b, 0.25);
    out_[o + 5u] = fma(a, b, 0.5);
    out_[o + 6u] = sqrt(b);
    out_[o + 7u] = inversesqrt(b);
    out_[o + 8u] = exp(a);
    out_[o + 9u] = exp2(a);
    out_[o + 10u] = mtl_exp10(a);
    out_[o + 11u] = log(b);
    out_[o + 12u] = log2(b);
    out_[o + 13u] = mtl_log10(b);
    out_[o + 14u] = pow(b, a);
    out_[o + 15u] = pow(b, 2.0 * a);
    out_[o + 16u] = sin(a);
    out_[o + 17u] = cos(a);
    out_[o + 18u] = tan(a);
    out_[o + 19u] = mtl_asin(0.9 * a);
    out_[o + 20u] = mtl_acos(0.9 * a);
    out_[o + 21u] = atan(c);
    out_[o + 22u] = atan(a, z);
    out_[o + 23u] = sinh(a);
    out_[o + 24u] = cosh(a);
    out_[o + 25u] = mtl_tanh(c);
    out_[o + 26u] = floor(c);
    out_[o + 27u] = ceil(c);
    out_[o + 28u] = mtl_round(c);
    out_[o + 29u] = roundEven(c);
    out_[o + 30u] = trunc(c);
    out_[o + 31u] = mtl_fract(c);
    out_[o + 32u] = mtl_fmod(c, z);
    out_[o + 33u] = mtl_copysign(b, z);
    out_[o + 34u] = sign(c);
    out_[o + 35u] = step(0.25, a);
    out_[o + 36u] = smoothstep(-0.5, 0.5, a);
    out_[o + 37u] = isnan(s) ? 1.0 : 0.0;
    out_[o + 38u] = isinf(s) ? 1.0 : 0.0;
    out_[o + 39u] = mtl_isfinite(s) ? 1.0 : 0.0;
    out_[o + 40u] = mtl_signbit(s) ? 1.0 : 0.0;
    out_[o + 41u] = erf_approx(c);
    out_[o + 42u] = sqrt(b);
    out_[o + 43u] = exp(a);
    out_[o + 44u] = mtl_tanh(c);
    out_[o + 45u] = exp(a);
    out_[o + 46u] = sin(a);
    out_[o + 47u] = pow(b, a);
    out_[o + 48u] = abs(z) + log(b);
    out_[o + 49u] = mtl_fmod(-c, 1.5);
    out_[o + 50u] = min(max(c, -1.0), 1.0) + float(uint(b * 3.0));
    out_[o + 51u] = float(int(c)) + float(int(-2.5 * a));
}
