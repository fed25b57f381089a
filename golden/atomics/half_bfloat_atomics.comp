#version 450
// Translated by mtl2glsl 0.1.0 from atomics.metal, kernel half_bfloat_atomics
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float16_t x[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_half_bins { uint half_bins[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_bf_bins { uint bf_bins[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// bfloat: the upper 16 bits of a float, rounded to nearest even; NaN stays a quiet NaN.
float mtl_bf16_to_float(uint16_t b)
{
    return uintBitsToFloat(uint(b) << 16);
}

uint16_t mtl_float_to_bf16(float f)
{
    uint u = floatBitsToUint(f);
    if (isnan(f))
        return uint16_t((u >> 16) | 0x40u);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

uint mtl_cas_uint; // atomic_compare_exchange_weak_explicit: the value found

void atomic_add_half_half_bins(uint word, uint slot, float16_t v)
{
    uint expected = atomicAdd(half_bins[word], 0u);
    while (true)
    {
        precise f16vec2 h = unpackFloat2x16(expected);
        h[slot] += v;
        if ((mtl_cas_uint = atomicCompSwap(half_bins[word], expected, packFloat2x16(h))) == expected || (expected = mtl_cas_uint, false))
        {
            break;
        }
    }
}

void atomic_add_bfloat_bf_bins(uint word, uint slot, float v)
{
    uint expected = atomicAdd(bf_bins[word], 0u);
    while (true)
    {
        u16vec2 u = unpack16(expected);
        precise uint16_t b = u[slot];
        precise uint16_t sum = mtl_float_to_bf16(mtl_bf16_to_float(b) + v);
        u[slot] = sum;
        if ((mtl_cas_uint = atomicCompSwap(bf_bins[word], expected, pack32(u))) == expected || (expected = mtl_cas_uint, false))
        {
            break;
        }
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uint bin = i % 8u;
    atomic_add_half_half_bins(bin / 2u, bin % 2u, x[i]);
    atomic_add_bfloat_bf_bins(bin / 2u, bin % 2u, float(x[i]));
}
