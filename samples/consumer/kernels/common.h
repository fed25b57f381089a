// common.h: helpers shared by the consumer's kernels (only affine.metal includes it).
#pragma once

// Leaky ReLU with slope LEAKY_SLOPE below zero (the build defines LEAKY_SLOPE, for the kernels and the host alike).
inline float leaky(float v)
{
    return v >= 0.0f ? v : LEAKY_SLOPE * v;
}
