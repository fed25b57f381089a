#version 450
// Translated by mtl2glsl 0.1.0 from mlx_quant_forms.metal, kernel byte_weights
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct vec_w
{
    uint wi[2];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { uint w[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { uint out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'w' read as vec_w from 4-byte steps, member by member
vec_w mtl_load_w_vec_w(uint i)
{
    vec_w v;
    for (uint k0 = 0u; k0 < 2u; k0++)
    {
        uint mtl_k0 = i + k0;
        v.wi[k0] = w[mtl_k0];
    }
    return v;
}

uint weigh_w_local(uint b, int n, in vec_w w_local)
{
    uint s = 0u;
    for (int i = 0; i < n; i++)
    {
        s += uint(uint8_t((w_local.wi[(b + uint(i)) / 4u] >> ((b + uint(i)) % 4u * 8u)))) * uint(i + 1);
    }
    return s;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    vec_w w_local;
    w_local = mtl_load_w_vec_w(2u * i);
    uint b = 0u;
    out_[2u * i] = weigh_w_local(0u, 8, w_local);
    out_[2u * i + 1u] = uint(uint8_t((w_local.wi[(b + 3u) / 4u] >> ((b + 3u) % 4u * 8u)))) | (uint(uint8_t((w_local.wi[(b + 4u) / 4u] >> ((b + 4u) % 4u * 8u)))) << 8);
}
