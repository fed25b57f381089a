#version 450
// Translated by mtl2glsl 0.1.0 from quant_blocks.metal, kernel quantize_q8_0
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct mv_args
{
    int nblocks;
    uint64_t nb01;
};

struct block_q8_0
{
    float16_t d;
    int8_t qs[32];
};

layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src { float src[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_dst { int8_t dst[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_dst_as_float16_t { precise float16_t dst_as_float16_t[]; }; // 'dst' read as half

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) mv_args args;
} mtl_params;

float mtl_round(float x)
{
    // C round: halfway cases away from zero
    float t = trunc(x);
    return t + sign(x) * step(0.5, abs(x - t));
}

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'dst' written as block_q8_0 in 2-byte steps, member by member
void mtl_store_dst_block_q8_0(uint i, block_q8_0 v)
{
    dst_as_float16_t[i] = v.d;
    for (uint k0 = 0u; k0 < 32u; k0++)
    {
        uint mtl_k0 = i * 2u + k0;
        dst[mtl_k0 + 2u] = v.qs[k0];
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    mv_args args = mtl_params.args;
    uvec2 gid = gl_GlobalInvocationID.xy;
    const int ib = int(gid.x);
    const int row = int(gid.y);
    uint x = uint((row * args.nblocks + ib) * 32);
    float amax = 0.0;
    for (int j = 0; j < 32; j++)
    {
        amax = max(amax, abs(src[x + uint(j)]));
    }
    precise const float d = amax / 127.0;
    precise const float id = d != 0.0 ? 1.0 / d : 0.0;
    precise block_q8_0 b;
    b.d = float16_t(d);
    for (int j = 0; j < 32; j++)
    {
        b.qs[j] = int8_t(mtl_round(src[x + uint(j)] * id));
    }
    uint out_ = (uint(uint64_t(row) * args.nb01)) / 2u + uint(ib) * 17u;
    mtl_store_dst_block_q8_0(out_, b);
    dst_as_float16_t[out_] = float16_t(d);
}
