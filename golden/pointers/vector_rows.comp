#version 450
// Translated by mtl2glsl 0.1.0 from pointers.metal, kernel vector_rows
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src { float src[]; };
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src_as_vec4 { vec4 src_as_vec4[]; }; // 'src' read as float4
layout(std430, set = 0, binding = 1) buffer mtl_buffer_dst { precise float dst[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_dst_as_vec4 { precise vec4 dst_as_vec4[]; }; // 'dst' read as float4

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_float { float v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint ne0;
    layout(offset = 24) mtl_ref_float src_addr;
    layout(offset = 32) mtl_ref_float dst_addr;
} mtl_params;

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'dst' written as float4 at a multiple of its scalars' size: whole where aligned, else component by component
void mtl_store_dst_vec4_at(uint i, vec4 v)
{
    if (i % 4u == 0u) {
        dst_as_vec4[i / 4u] = v;
        return;
    }
    dst[i] = v[0];
    dst[i + 1u] = v[1];
    dst[i + 2u] = v[2];
    dst[i + 3u] = v[3];
}

// 'src' read as float4 at a multiple of its scalars' size: whole where aligned, else component by component
vec4 mtl_load_src_vec4_at(uint i)
{
    if (i % 4u == 0u)
        return src_as_vec4[i / 4u];
    return vec4(src[i], src[i + 1u], src[i + 2u], src[i + 3u]);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint ne0 = mtl_params.ne0;
    uint row = gl_GlobalInvocationID.x;
    uint s = row * ne0;
    uint e = s + ne0 / 4u * 4u;
    uint d = row * ne0;
    for (; s < e; (((s += 4u))) * 4u , (d += 4u) * 16u)
    {
        mtl_store_dst_vec4_at(d, mtl_load_src_vec4_at(s) + vec4(1.0, 2.0, 3.0, 4.0));
    }
    dst[row * ne0 + ne0 - 1u] = float(int64_t(int(e - (row * ne0)) / 4));
}
