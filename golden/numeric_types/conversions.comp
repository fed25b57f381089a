#version 450
// Translated by mtl2glsl 0.1.0 from numeric_types.metal, kernel conversions
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_f { float f[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_i_out { int i_out[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_h_out { precise float16_t h_out[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_u64 { uint64_t u64[]; };

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
    i_out[i] = int(f[i]);
    h_out[i] = float16_t(int(f[i] * 16.0));
    u64[i] = uint64_t(i) * 4294967297ul + (1ul << 40);
}
