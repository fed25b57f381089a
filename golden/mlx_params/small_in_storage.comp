#version 450
// Translated by mtl2glsl 0.1.0 from mlx_params.metal, kernel small_in_storage
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Table
{
    vec4 rows[8];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_table { Table table; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_on { uint8_t on; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_shift { uint8_t shift; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_scale { float16_t scale; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    out_[i] = bool(on) ? table.rows[i % 8u].x * float(scale) + float(shift) : -1.0;
}
