#version 450
// Translated by mtl2glsl 0.1.0 from pointers.metal, kernel pointer_walk
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_acc { precise float acc[]; };
layout(std430, set = 0, binding = 0) buffer mtl_buffer_acc_as_vec4 { precise vec4 acc_as_vec4[]; }; // 'acc' read as float4
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_m { float m[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_m_as_vec4 { vec4 m_as_vec4[]; }; // 'm' read as float4
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_info { int info[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint cols;
    layout(offset = 20) uint rows;
} mtl_params;

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'acc' read as float4 at a multiple of its scalars' size: whole where aligned, else component by component
vec4 mtl_load_acc_vec4_at(uint i)
{
    if (i % 4u == 0u)
        return acc_as_vec4[i / 4u];
    return vec4(acc[i], acc[i + 1u], acc[i + 2u], acc[i + 3u]);
}

// 'acc' written as float4 at a multiple of its scalars' size: whole where aligned, else component by component
void mtl_store_acc_vec4_at(uint i, vec4 v)
{
    if (i % 4u == 0u) {
        acc_as_vec4[i / 4u] = v;
        return;
    }
    acc[i] = v[0];
    acc[i + 1u] = v[1];
    acc[i + 2u] = v[2];
    acc[i + 3u] = v[3];
}

// 'acc' += on float4 there
void mtl_add_acc_vec4_at(uint i, vec4 y)
{
    mtl_store_acc_vec4_at(i, mtl_load_acc_vec4_at(i) + y);
}

// 'm' read as float4 at a multiple of its scalars' size: whole where aligned, else component by component
vec4 mtl_load_m_vec4_at(uint i)
{
    if (i % 4u == 0u)
        return m_as_vec4[i / 4u];
    return vec4(m[i], m[i + 1u], m[i + 2u], m[i + 3u]);
}

void add_into_acc_m(uint dst, uint src, int n)
{
    uint d4 = dst;
    uint s4 = src;
    int i = 0;
    for (; i + 4 <= n; i += 4)
    {
        mtl_add_acc_vec4_at((((d4 += 4u) - 4u)), mtl_load_m_vec4_at((((s4 += 4u) - 4u))));
    }
    for (; i < n; i++)
    {
        acc[dst + uint(i)] += m[src + uint(i)];
    }
}

void scale_ref_acc(uint v, float s)
{
    acc[v] *= s;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint cols = mtl_params.cols;
    uint rows = mtl_params.rows;
    uint t = gl_GlobalInvocationID.x;
    uint out_ = ((t & 1u) != 0u ? t * cols : (t + 1u) * cols - cols);
    uint end = rows * cols;
    for (uint r = 0u; r < end; r += cols)
    {
        add_into_acc_m(out_, r, int(cols) - 2);
    }
    scale_ref_acc(out_ + 0u, 2.0);
    uint last = out_ + (cols - 1u);
    acc[last] = -acc[last];
    info[t] = int(int64_t(int(end - 0u)));
}
