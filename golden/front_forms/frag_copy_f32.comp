#version 450
// Translated by mtl2glsl 0.1.0 from front_forms.metal, kernel frag_copy_f32
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Tile_float
{
    vec4 frags[2];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void Frag_load_void_in_(inout vec4 dst, uint src)
{
    for (int j = 0; j < 4; j++)
    {
        dst[j] = in_[src + uint(j)];
    }
}

void Frag_axpy_void(inout vec4 y, float a, vec4 x)
{
    y = a * x + y;
}

void Frag_store_void_out_(vec4 src, uint dst)
{
    for (int j = 0; j < 4; j++)
    {
        out_[dst + uint(j)] = src[j];
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise Tile_float t;
    Frag_load_void_in_(t.frags[0], 8u * i);
    Frag_load_void_in_(t.frags[1], 8u * i + 4u);
    Frag_axpy_void(t.frags[0], 3.0, t.frags[1]);
    Frag_store_void_out_(t.frags[0], 8u * i);
    Frag_store_void_out_(t.frags[1], 8u * i + 4u);
}
