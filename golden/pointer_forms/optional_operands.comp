#version 450
// Translated by mtl2glsl 0.1.0 from pointer_forms.metal, kernel optional_operands
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src0 { int8_t src0[]; };
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src0_as_float { float src0_as_float[]; }; // 'src0' read as float
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src1 { int8_t src1[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src1_as_float { float src1_as_float[]; }; // 'src1' read as float
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_src2 { int8_t src2[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_src2_as_float { float src2_as_float[]; }; // 'src2' read as float
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_dst { precise float dst[]; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_int8_t { int8_t v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) mtl_ref_int8_t src1_addr;
    layout(offset = 24) mtl_ref_int8_t src0_addr;
    layout(offset = 32) mtl_ref_int8_t src2_addr;
} mtl_params;

precise float first_or_src2(uint p, float fallback)
{
    return p != 0xffffffffu ? src2_as_float[p] : fallback;
}

precise float first_or_null(uint p, float fallback)
{
    return p != 0xffffffffu ? 0.0 : fallback;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uint x = 0u;
    uint pmask = ((uint64_t(mtl_params.src1_addr)) != (uint64_t(mtl_params.src0_addr)) ? (4u * i) / 4u : 0xffffffffu);
    uint psink = ((uint64_t(mtl_params.src2_addr)) != (uint64_t(mtl_params.src0_addr)) ? 0u : 0xffffffffu);
    precise float v = src0_as_float[x + i] + (pmask != 0xffffffffu ? 2.0 * src1_as_float[pmask] : 0.0) + (psink != 0xffffffffu ? src2_as_float[psink + i % 4u] : -1e+02);
    if (!(pmask != 0xffffffffu))
    {
        v += 1e+03;
    }
    if (psink == 0xffffffffu)
    {
        v += 1e+04;
    }
    dst[i] = v + first_or_src2(psink, 0.5) + first_or_null(0xffffffffu, 0.25);
}
