#version 450
// Translated by mtl2glsl 0.1.0 from arg_buffers.metal, kernel gather_tables
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Table
{
    uint64_t rows; // float*
    uint row_len;
    float scale;
};

struct Tables
{
    Table tables[2];
    uint64_t out_; // float*
    uint64_t pairs; // Pair*
};

struct Pair
{
    float lo;
    float hi;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_tabs { Tables tabs; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_row_of { uint row_of[]; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_float { float v[]; };
layout(buffer_reference, std430) buffer mtl_ref_Pair { Pair v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint n;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint n = mtl_params.n;
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
    {
        return;
    }
    const uint which = i & 1u;
    mtl_ref_float row_ref = mtl_ref_float(tabs.tables[which].rows);
    uint row = row_of[i] * tabs.tables[which].row_len;
    precise float first = row_ref.v[row] * tabs.tables[which].scale;
    precise float last = row_ref.v[row + (tabs.tables[which].row_len - 1u)];
    mtl_ref_float(tabs.out_).v[i] = first + last;
    mtl_ref_Pair(tabs.pairs).v[i].lo = first;
    mtl_ref_Pair(tabs.pairs).v[i].hi = last;
}
