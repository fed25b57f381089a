#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel uchar_subword_count
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_counts { uint8_t counts[]; };
layout(std430, set = 0, binding = 0) buffer mtl_buffer_counts_as_uint { uint counts_as_uint[]; }; // 'counts' read as atomic<uint>
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x { uint8_t x[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

uint mtl_cas_uint; // atomic_compare_exchange_weak_explicit: the value found

void atomic_add_uchar_at_counts(uint data, uint index, uint8_t v)
{
    uint word = (data + (index & ~3u)) / 4u;
    uint shift = (index & 3u) * 8u;
    uint expected = atomicAdd(counts_as_uint[word], 0u);
    while (true)
    {
        uint sum = ((expected >> shift) + uint(v)) & 255u;
        uint desired = (expected & ~(255u << shift)) | (sum << shift);
        if ((mtl_cas_uint = atomicCompSwap(counts_as_uint[word], expected, desired)) == expected || (expected = mtl_cas_uint, false))
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
    atomic_add_uchar_at_counts(0u, uint(x[i]), uint8_t(1));
}
