#version 450
// Translated by mtl2glsl 0.1.0 from mlx_more_forms.metal, kernel union_bytes
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_keys { uint keys[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { uint8_t out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint limit;
} mtl_params;

uint64_t mix_bits(uvec2 key, uvec2 count)
{
    uint64_t v = uint64_t(0);
    v = uint64_t((v & ~(uint64_t(0xfffffffful) << (0u % 8u * 8u))) | (uint64_t(count.x + key.x) << (0u % 8u * 8u)));
    v = uint64_t((v & ~(uint64_t(0xfffffffful) << (4u % 8u * 8u))) | (uint64_t(count.y + key.y) << (4u % 8u * 8u)));
    for (int i = 0; i < 3; ++i)
    {
        v = uint64_t((v & ~(uint64_t(0xfffffffful) << (0u % 8u * 8u))) | (uint64_t(uint(uint((v >> (0u % 8u * 8u))) + uvec2(uint((v >> (0u % 8u * 8u))), uint((v >> (4u % 8u * 8u)))).y)) << (0u % 8u * 8u)));
        v = uint64_t((v & ~(uint64_t(0xfffffffful) << (4u % 8u * 8u))) | (uint64_t((uvec2(uint((v >> (0u % 8u * 8u))), uint((v >> (4u % 8u * 8u)))).y << 13) | (uvec2(uint((v >> (0u % 8u * 8u))), uint((v >> (4u % 8u * 8u)))).y >> 19)) << (4u % 8u * 8u)));
        v = uint64_t((v & ~(uint64_t(0xfffffffful) << (4u % 8u * 8u))) | (uint64_t(uint(uint((v >> (4u % 8u * 8u))) ^ uvec2(uint((v >> (0u % 8u * 8u))), uint((v >> (4u % 8u * 8u)))).x)) << (4u % 8u * 8u)));
    }
    return v;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint limit = mtl_params.limit;
    uint index = gl_GlobalInvocationID.x;
    uvec2 key = uvec2(keys[0], keys[1]);
    uint64_t bits = mix_bits(key, uvec2(index, index * 7u));
    for (uint j = 0u; j < 4u; ++j)
    {
        out_[8u * index + j] = uint8_t((bits >> (j % 8u * 8u)));
    }
    uint64_t copy = bits;
    for (uint j = 0u; j < limit; ++j)
    {
        out_[8u * index + 4u + j] = uint8_t((copy >> ((j + 4u) % 8u * 8u)));
    }
}
