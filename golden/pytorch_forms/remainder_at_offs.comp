#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel remainder_at_offs
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_out_ { int8_t out_[]; };
layout(std430, set = 0, binding = 0) buffer mtl_buffer_out__as_int16_t { int16_t out__as_int16_t[]; }; // 'out' read as short
layout(std430, set = 0, binding = 0) buffer mtl_buffer_out__as_int { int out__as_int[]; }; // 'out' read as int

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int m;
    layout(offset = 24) int64_t out_stride;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

uint ref_at_offs_int_out_(uint ptr, int64_t offs)
{
    return (ptr + uint(offs)) / 4u;
}

uint ref_at_offs_short_out_(uint ptr, int64_t offs)
{
    return (ptr + uint(offs)) / 2u;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int m = mtl_params.m;
    int64_t out_stride = mtl_params.out_stride;
    uint i = gl_GlobalInvocationID.x;
    out__as_int[ref_at_offs_int_out_(0u, int64_t(i) * out_stride)] = mtl_rem(out__as_int[ref_at_offs_int_out_(0u, int64_t(i) * out_stride)], m);
    out__as_int16_t[ref_at_offs_short_out_(0u, int64_t(i) * out_stride + 4l)] = int16_t(mtl_rem(int(out__as_int16_t[ref_at_offs_short_out_(0u, int64_t(i) * out_stride + 4l)]), int(int16_t(m))));
}
