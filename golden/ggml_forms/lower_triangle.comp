#version 450
// Translated by mtl2glsl 0.1.0 from ggml_forms.metal, kernel lower_triangle
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src { int8_t src[]; };
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src_as_float { float src_as_float[]; }; // 'src' read as float
layout(std430, set = 0, binding = 1) buffer mtl_buffer_dst { int8_t dst[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_dst_as_float { precise float dst_as_float[]; }; // 'dst' read as float

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint cols;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint cols = mtl_params.cols;
    uvec2 pos = gl_GlobalInvocationID.xy;
    uint s = (uint(uint64_t(pos.y * cols) * 4ul)) / 4u;
    uint d = (uint(uint64_t(pos.y * cols) * 4ul)) / 4u;
    dst_as_float[d + pos.x] = pos.x <= pos.y ? src_as_float[s + pos.x] : 0.0;
}
