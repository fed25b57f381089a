#version 450
// Translated by mtl2glsl 0.1.0 from pointers.metal, kernel q4_matvec_struct
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Block
{
    float16_t scale;
    uint8_t nibbles[16];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { uint8_t w[]; };
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w_as_Block { Block w_as_Block[]; }; // 'w' read as Block
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint nblocks;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint nblocks = mtl_params.nblocks;
    uint row = gl_GlobalInvocationID.x;
    uint blocks = row * nblocks;
    float acc = 0.0;
    for (uint b = 0u; b < nblocks; b++)
    {
        uint blk = blocks + b;
        float s = 0.0;
        for (int j = 0; j < 16; j++)
        {
            s += float((int(w_as_Block[blk].nibbles[j]) & 15) - 8) * x[b * 32u + uint(j)];
            s += float((int(w_as_Block[blk].nibbles[j]) >> 4) - 8) * x[b * 32u + uint(j) + 16u];
        }
        acc += float(w_as_Block[blk].scale) * s;
    }
    y[row] = acc;
}
