#version 450
// Translated by mtl2glsl 0.1.0 from pointer_forms.metal, kernel chosen_rows
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_a { int8_t a[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_b { int8_t b[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_y { precise float y[]; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_float { float v[]; };
layout(buffer_reference, std430) buffer mtl_ref_int8_t { int8_t v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint split;
    layout(offset = 24) mtl_ref_int8_t b_addr;
    layout(offset = 32) mtl_ref_int8_t a_addr;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint split = mtl_params.split;
    uint i = gl_GlobalInvocationID.x;
    mtl_ref_float rows_ref[2];
    uint rows[2];
    for (int r = 0; r < 2; ++r)
    {
        rows_ref[r] = ((i + uint(r)) >= split ? mtl_ref_float(mtl_params.b_addr) : mtl_ref_float(mtl_params.a_addr)), rows[r] = 4u * (i + uint(r));
    }
    y[i] = rows_ref[0].v[rows[0] + 1u] + 1e+01 * rows_ref[1].v[rows[1] + 2u];
}
