#version 450
// Translated by mtl2glsl 0.1.0 from mathlib.metal, kernel math_int

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_u { uint u[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_v { int v[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_f { float f[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_ { uint out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

uint mtl_popcount(uint x) { return uint(bitCount(x)); }

uint mtl_clz(uint x) { return uint(31 - findMSB(uint(x))); }

uint mtl_ctz(uint x) { return uint(min(uint(findLSB(x)), uint(32u))); }

uint mtl_mulhi(uint x, uint y)
{
    uint hi, lo;
    umulExtended(x, y, hi, lo);
    return hi;
}

int mtl_mulhi(int x, int y)
{
    int hi, lo;
    imulExtended(x, y, hi, lo);
    return hi;
}

uint mtl_rotate(uint x, uint n)
{
    uint v = uint(x), s = uint(n) & 31u;
    return uint((v << s) | (v >> ((32u - s) & 31u)));
}

uint mtl_extract_bits(uint x, uint offset, uint bits) { return bitfieldExtract(x, int(offset), int(bits)); }

int mtl_extract_bits(int x, uint offset, uint bits) { return bitfieldExtract(x, int(offset), int(bits)); }

uint mtl_insert_bits(uint base, uint insert, uint offset, uint bits) { return bitfieldInsert(base, insert, int(offset), int(bits)); }

uint mtl_reverse_bits(uint x) { return bitfieldReverse(x); }

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

const int INT_OUTPUTS = 16;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uint p = u[i];
    int q = v[i];
    uint shift = p & 31u;
    uint offset = (p >> 8) & 15u;
    uint bits = (p >> 16) % 17u;
    uint o = uint(INT_OUTPUTS) * i;
    out_[o + 0u] = mtl_popcount(p);
    out_[o + 1u] = mtl_clz(p >> shift);
    out_[o + 2u] = mtl_ctz(p << shift);
    out_[o + 3u] = mtl_mulhi(p, 2654435769u);
    out_[o + 4u] = uint(mtl_mulhi(q, -123456789));
    out_[o + 5u] = mtl_rotate(p, shift);
    out_[o + 6u] = mtl_extract_bits(p, offset, bits);
    out_[o + 7u] = uint(mtl_extract_bits(q, offset, bits));
    out_[o + 8u] = mtl_insert_bits(p, 1515870810u, offset, bits);
    out_[o + 9u] = mtl_reverse_bits(p);
    out_[o + 10u] = floatBitsToUint(f[i]);
    out_[o + 11u] = uint(abs(q) / 3 - mtl_rem(q, 5));
    out_[o + 12u] = uint(min(q, 1000) ^ max(q, -1000));
    out_[o + 13u] = uint(clamp(q, -70000, 70000) >> 3);
    out_[o + 14u] = floatBitsToUint(uintBitsToFloat((p & 8388607u) | 1065353216u) * 2.0);
    out_[o + 15u] = uint(abs(f[i]) * 1e+02) + uint(int(f[i] * -7.0));
}
