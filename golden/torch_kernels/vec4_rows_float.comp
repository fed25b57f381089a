#version 450
// Translated by mtl2glsl 0.1.0 from torch_kernels.metal, kernel vec4_rows_float

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_input_ { float input_[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_output_ { precise float output_[]; };
layout(std430, set = 0, binding = 3) buffer mtl_buffer_aux { precise float aux[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uvec2 offs;
} mtl_params;

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'input' read as packed_float4 at a multiple of its scalars' size only: component by component
vec4 mtl_load_input__packed_vec4_by_elems(uint i)
{
    return vec4(input_[i], input_[i + 1u], input_[i + 2u], input_[i + 3u]);
}

// 'output' written as packed_float4 at a multiple of its scalars' size only: component by component
void mtl_store_output__packed_vec4_by_elems(uint i, vec4 v)
{
    output_[i] = v[0];
    output_[i + 1u] = v[1];
    output_[i + 2u] = v[2];
    output_[i + 3u] = v[3];
}

// 'aux' read as packed_float4 at a multiple of its scalars' size only: component by component
vec4 mtl_load_aux_packed_vec4_by_elems(uint i)
{
    return vec4(aux[i], aux[i + 1u], aux[i + 2u], aux[i + 3u]);
}

// 'aux' written as packed_float4 at a multiple of its scalars' size only: component by component
void mtl_store_aux_packed_vec4_by_elems(uint i, vec4 v)
{
    aux[i] = v[0];
    aux[i + 1u] = v[1];
    aux[i + 2u] = v[2];
    aux[i + 3u] = v[3];
}

precise vec4 load_vec4_input_(uint p)
{
    return mtl_load_input__packed_vec4_by_elems(p);
}

void store_vec4_output_(uint p, vec4 v)
{
    mtl_store_output__packed_vec4_by_elems(p, v);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uvec2 offs = mtl_params.offs;
    uint i = gl_GlobalInvocationID.x;
    uint x = offs.x;
    uint out_ = offs.y;
    precise vec4 v = load_vec4_input_(x + i * 4u);
    store_vec4_output_(out_ + i * 4u, v * 2.0 + vec4(0, 1, 2, 3));
    uint p = offs.x + i * 4u;
    uint q = offs.x + 0u;
    precise vec4 w = vec4(v.x, v.yzw);
    w.x += mtl_load_aux_packed_vec4_by_elems(p + 0u).x;
    q += i * 4u;
    mtl_store_aux_packed_vec4_by_elems(q + 0u, w);
}
