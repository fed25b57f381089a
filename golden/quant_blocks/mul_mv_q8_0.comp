#version 450
// Translated by mtl2glsl 0.1.0 from quant_blocks.metal, kernel mul_mv_q8_0
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct block_q8_0
{
    float16_t d;
    int8_t qs[32];
};

struct mv_args
{
    int nblocks;
    uint64_t nb01;
};

layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src0 { int8_t src0[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src0_as_float16_t { float16_t src0_as_float16_t[]; }; // 'src0' read as half
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_src1 { float src1[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_dst { precise float dst[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) mv_args args;
} mtl_params;

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'src0' read as block_q8_0 from 2-byte steps, member by member
block_q8_0 mtl_load_src0_block_q8_0(uint i)
{
    block_q8_0 v;
    v.d = src0_as_float16_t[i];
    for (uint k0 = 0u; k0 < 32u; k0++)
    {
        uint mtl_k0 = i * 2u + k0;
        v.qs[k0] = src0[mtl_k0 + 2u];
    }
    return v;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    mv_args args = mtl_params.args;
    uint row = gl_GlobalInvocationID.x;
    uint x = (uint(uint64_t(row) * args.nb01)) / 2u;
    float sum = 0.0;
    for (int ib = 0; ib < args.nblocks; ib++)
    {
        precise const block_q8_0 b = mtl_load_src0_block_q8_0(x + uint(ib) * 17u);
        float acc = 0.0;
        for (int j = 0; j < 32; j++)
        {
            acc += float(int(b.qs[j])) * src1[ib * 32 + j];
        }
        sum += float(b.d) * acc;
    }
    dst[row] = sum;
}
