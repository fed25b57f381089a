// Floating-point arithmetic evaluated as written: Metal without fast math (MLX builds with -fno-fast-math,
// PyTorch compiles with MTLMathModeSafe) rounds every operation, and libraries rely on it:
//   - rounding to an integer by adding and subtracting 1.5 * 2^23 (MLX's expm1f and erf),
//   - the error term of a sum (two-sum, as compensated summation and double-float arithmetic compute it),
//   - half-precision exp and log within an ulp or two of the exact value.
#include <metal_stdlib>
using namespace metal;

constant float ROUNDER = 12582912.0f; // 1.5 * 2^23: x + ROUNDER rounds x to an integer (|x| < 2^22)

// x rounded to the nearest integer (ties to even), the way MLX's expm1f computes j.
float round_by_adding(float x)
{
    float j = fma(1.0f, x, ROUNDER);
    return j - ROUNDER;
}

// The rounding error of a + b: (a + b) - a - b computed exactly (Knuth's two-sum).
float two_sum_error(float a, float b)
{
    float s = a + b;
    float bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

kernel void rounding(device const float* x [[buffer(0)]],
                     device float* rounded [[buffer(1)]],
                     device float* inline_rounded [[buffer(2)]],
                     uint i [[thread_position_in_grid]])
{
    rounded[i] = round_by_adding(x[i]);
    inline_rounded[i] = (x[i] + ROUNDER) - ROUNDER; // computed straight into the buffer
}

kernel void compensated_sum(device const float* x [[buffer(0)]],
                            device float2* out [[buffer(1)]],
                            constant uint& n [[buffer(2)]],
                            uint row [[thread_position_in_grid]])
{
    // Kahan-Babuska (Neumaier) summation of one row: the sum and its compensation
    float s = 0.0f, c = 0.0f;
    for (uint k = 0; k < n; k++) {
        float v = x[row * n + k];
        c += two_sum_error(s, v);
        s += v;
    }
    out[row] = float2(s, c);
}

kernel void half_functions(device const half* x [[buffer(0)]],
                           device half* e [[buffer(1)]],
                           device half* l [[buffer(2)]],
                           uint i [[thread_position_in_grid]])
{
    e[i] = exp(x[i]);
    l[i] = log(abs(x[i]) + 1.0h);
}
