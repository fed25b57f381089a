#version 450
// Translated by mtl2glsl 0.1.0 from quant_blocks.metal, kernel mul_mv_q4_0
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct block_q4_0
{
    float16_t d;
    uint8_t qs[16];
};

struct mv_args
{
    int nblocks;
    uint64_t nb01;
};

layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src0 { int8_t src0[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src0_as_uint16_t { uint16_t src0_as_uint16_t[]; }; // 'src0' read as ushort
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

precise float block_dot_q4_0_src0_src1(uint qb, uint y)
{
    uint qs = qb + 1u;
    float acc = 0.0;
    for (int i = 0; i < 8; i++)
    {
        const uint16_t w = src0_as_uint16_t[qs + uint(i)];
        acc += src1[y + uint(2 * i + 0)] * (float(int(w) & 15) - 8.0) + src1[y + uint(2 * i + 16)] * (float((int(w) >> 4) & 15) - 8.0);
        acc += src1[y + uint(2 * i + 1)] * (float((int(w) >> 8) & 15) - 8.0) + src1[y + uint(2 * i + 17)] * (float(int(w) >> 12) - 8.0);
    }
    return float(src0_as_float16_t[qb]) * acc;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    mv_args args = mtl_params.args;
    uint row = gl_GlobalInvocationID.x;
    uint x = (uint(uint64_t(row) * args.nb01)) / 2u;
    uint y = 0u;
    float sum = 0.0;
    for (int ib = 0; ib < args.nblocks; ib++)
    {
        sum += block_dot_q4_0_src0_src1(x, y);
        x += 9u;
        y += 32u;
    }
    dst[row] = sum;
}
