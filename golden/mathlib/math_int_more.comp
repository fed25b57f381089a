#version 450
// Translated by mtl2glsl 0.1.0 from mathlib.metal, kernel math_int_more

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_u { uint u[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_v { int v[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { uint out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

uint mtl_absdiff(int x, int y) { return uint(max(x, y)) - uint(min(x, y)); }

uint mtl_absdiff(uint x, uint y) { return uint(max(x, y)) - uint(min(x, y)); }

uint mtl_hadd(uint x, uint y) { return (x >> 1) + (y >> 1) + (x & y & uint(1)); } // (x + y) >> 1 without overflow

int mtl_rhadd(int x, int y) { return (x >> 1) + (y >> 1) + ((x | y) & int(1)); } // (x + y + 1) >> 1 without overflow

uint mtl_madhi(uint x, uint y, uint z)
{
    uint hi, lo;
    umulExtended(x, y, hi, lo);
    return hi + z;
}

uint mtl_mul24(uint x, uint y) { return x * y; }

uint mtl_mad24(uint x, uint y, uint z) { return x * y + z; }

int mtl_median3(int x, int y, int z) { return max(min(x, y), min(max(x, y), z)); }

int mtl_max3(int x, int y, int z) { return max(max(x, y), z); }

int mtl_min3(int x, int y, int z) { return min(min(x, y), z); }

uint mtl_max3(uint x, uint y, uint z) { return max(max(x, y), z); }

uint mtl_min3(uint x, uint y, uint z) { return min(min(x, y), z); }

uint mtl_median3(uint x, uint y, uint z) { return max(min(x, y), min(max(x, y), z)); }

const int INT_MORE_OUTPUTS = 9;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uint p = u[i];
    int q = v[i];
    uint o = uint(INT_MORE_OUTPUTS) * i;
    out_[o + 0u] = mtl_absdiff(q, -q / 3);
    out_[o + 1u] = mtl_absdiff(p, 2147483647u);
    out_[o + 2u] = mtl_hadd(p, 3735928559u);
    out_[o + 3u] = uint(mtl_rhadd(q, -1234567));
    out_[o + 4u] = mtl_madhi(p, 2654435769u, 5u);
    out_[o + 5u] = mtl_mul24(p & 65535u, 300u);
    out_[o + 6u] = mtl_mad24(p & 4095u, 77u, 11u);
    out_[o + 7u] = uint(mtl_median3(q, 0, 1000) + mtl_max3(q, -5, 5) - mtl_min3(q, 7, -7));
    out_[o + 8u] = mtl_max3(p, 1u, 2u) ^ mtl_min3(p, 1u, 2u) ^ mtl_median3(p, 100u, 200u);
}
