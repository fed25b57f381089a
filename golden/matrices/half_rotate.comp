#version 450
// Translated by mtl2glsl 0.1.0 from matrices.metal, kernel half_rotate
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_pts { f16vec2 pts[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_angles { float angles[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_hm { f16mat3 hm[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_ { precise f16vec2 out_[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_out3 { precise f16vec3 out3[]; };

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
    precise float16_t c = float16_t(cos(angles[i]));
    precise float16_t s = float16_t(sin(angles[i]));
    precise f16mat2 rot = f16mat2(f16vec2(c, s), f16vec2(-s, c));
    out_[i] = rot * pts[i];
    precise f16mat3 h = hm[i];
    out3[i] = h * f16vec3(pts[i], 1.0hf) + f16vec3(mat3(h)[0] * 0.5);
}
