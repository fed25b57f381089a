#version 450
// Translated by mtl2glsl 0.1.0 from pointer_forms.metal, kernel chosen_blocks
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { int8_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { int8_t b[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_y { precise float y[]; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_int8_t { int8_t v[]; };
layout(buffer_reference, std430) buffer mtl_ref_uint8_t { uint8_t v[]; };
layout(buffer_reference, std430) buffer mtl_ref_uint16_t { uint16_t v[]; };
layout(buffer_reference, std430) buffer mtl_ref_float16_t { float16_t v[]; };
layout(buffer_reference, std430) buffer mtl_ref_f16vec2 { f16vec2 v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint split;
    layout(offset = 24) mtl_ref_int8_t a_addr;
    layout(offset = 32) mtl_ref_int8_t b_addr;
} mtl_params;

precise float block_value_addr(mtl_ref_uint8_t b_p_ref, uint b_p, int16_t j)
{
    const uint hi = uint(pack32(u16vec2(mtl_ref_uint16_t(b_p_ref).v[b_p * 2u + 3u], mtl_ref_uint16_t(b_p_ref).v[(b_p * 2u + 3u) + 1u])));
    return float(mtl_ref_float16_t(b_p_ref).v[b_p * 2u]) * float(uint(b_p_ref.v[b_p * 4u + uint(j) + 10u]) + ((hi >> (8 * int(j) + int(b_p_ref.v[b_p * 4u + 5u]))) & 1u)) + float(mtl_ref_f16vec2(b_p_ref).v[b_p].y);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint split = mtl_params.split;
    uvec2 gid = gl_GlobalInvocationID.xy;
    mtl_ref_int8_t src_ref = mtl_params.a_addr;
    uint src = 0u;
    if (gid.y >= split)
    {
        src_ref = mtl_params.b_addr;
        src = 0u;
    }
    mtl_ref_uint8_t row_ref = mtl_ref_uint8_t(src_ref);
    uint row = (src + gid.y * 36u) / 4u;
    y[gid.y * 8u + gid.x] = block_value_addr(row_ref, row + gid.x / 4u * 4u, int16_t(gid.x % 4u));
}
