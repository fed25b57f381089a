#version 450
// Translated by mtl2glsl 0.1.0 from particles.metal, kernel particles_tag
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// Metal's layout: mtl_pad members stand for the bytes std430 would not leave.
struct Particle
{
    vec3 pos;
    vec3 vel;
    uint mtl_pad0;
    float mass;
    f16vec3 color;
    uint id;
    float age;
};

layout(std430, set = 0, binding = 0) buffer mtl_buffer_ps { precise Particle ps[]; };

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
    ps[i].color = ps[i].color.zxy;
    ps[i].id = ps[i].id * 3u + 1u;
}
