#version 450
// Translated by mtl2glsl 0.1.0 from pointers.metal, kernel q4_matvec
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { uint8_t w[]; };
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w_as_uint16_t { uint16_t w_as_uint16_t[]; }; // 'w' read as ushort
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint nblocks;
} mtl_params;

precise float block_dot_w_x(uint q, uint x_p, uint nblocks)
{
    float acc = 0.0;
    for (uint b = 0u; b < nblocks; b++)
    {
        uint16_t bits = w_as_uint16_t[q / 2u];
        precise float d = float(uint16BitsToFloat16(bits));
        uint nib = q + 2u;
        float s = 0.0;
        for (int j = 0; j < 16; j++)
        {
            int lo = (int(w[nib + uint(j)]) & 15) - 8;
            int hi = (int(w[nib + uint(j)]) >> 4) - 8;
            s += float(lo) * x[x_p + uint(j)] + float(hi) * x[x_p + uint(j + 16)];
        }
        acc += d * s;
        q += 18u;
        x_p += 32u;
    }
    return acc;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint nblocks = mtl_params.nblocks;
    uint row = gl_GlobalInvocationID.x;
    uint q = row * nblocks * 18u;
    y[row] = block_dot_w_x(q, 0u, nblocks);
}
