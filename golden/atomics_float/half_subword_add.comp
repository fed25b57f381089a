#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel half_subword_add
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_bins { precise float16_t bins[]; };
layout(std430, set = 0, binding = 0) buffer mtl_buffer_bins_as_uint { uint bins_as_uint[]; }; // 'bins' read as atomic<uint>
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x { float16_t x[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

uint mtl_cas_uint; // atomic_compare_exchange_weak_explicit: the value found

void atomic_add_half_at_bins(uint data, uint index, float16_t v)
{
    uint word = (data + (index & ~1u)) / 2u;
    uint shift = (index & 1u) * 16u;
    uint expected = atomicAdd(bins_as_uint[word], 0u);
    while (true)
    {
        precise float16_t old = uint16BitsToFloat16(uint16_t(expected >> shift));
        uint sum = uint(float16BitsToUint16(old + v));
        uint desired = (expected & ~(65535u << shift)) | (sum << shift);
        if ((mtl_cas_uint = atomicCompSwap(bins_as_uint[word], expected, desired)) == expected || (expected = mtl_cas_uint, false))
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
    atomic_add_half_at_bins(0u, i % 7u, x[i]);
}
