#version 450
// Translated by mtl2glsl 0.1.0 from matrices.metal, kernel transform_points
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Frame
{
    float scale;
    mat3 normal;
    mat2 uv;
    f16mat3 tint;
    float bias;
    mat2x3 bones[2];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_points { vec4 points[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_transforms { mat4 transforms[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_frame { Frame frame; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_pos { precise vec4 out_pos[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_out_normal { precise vec3 out_normal[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_out_tint { precise f16vec3 out_tint[]; };
layout(std430, set = 0, binding = 6) readonly buffer mtl_buffer_per_instance { uint per_instance; };

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
    precise mat4 m = transforms[i / per_instance];
    precise vec4 p = points[i];
    out_pos[i] = m * p * frame.scale + frame.bias;
    precise vec3 n = frame.normal * p.xyz;
    out_normal[i] = n + vec3(frame.uv * p.xy, 0.0) + frame.bones[i % 2u] * p.zw;
    out_tint[i] = frame.tint * f16vec3(p.xyz);
}
