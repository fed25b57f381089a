#version 450
// Translated by mtl2glsl 0.1.0 from unions.metal, kernel dequantize_q4_1
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct block_q4_1
{
    float16_t d;
    float16_t m;
    uint8_t qs[16];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { block_q4_1 x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint ib = gl_GlobalInvocationID.x;
    uint b = ib;
    const float d = float(x[b].d);
    const float m = float(x[b].m);
    for (int j = 0; j < 32 / 2; ++j)
    {
        y[ib * 32u + uint(j)] = float((int(x[b].qs[j]) & 15)) * d + m;
        y[ib * 32u + uint(j) + uint(32 / 2)] = float((int(x[b].qs[j]) >> 4)) * d + m;
    }
}
