#version 450
// Translated by mtl2glsl 0.1.0 from pointers2.metal, kernel member_pointers

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Particle
{
    vec3 pos;
    vec2 vel;
    float mass;
};

layout(std430, set = 0, binding = 0) buffer mtl_buffer_ps { precise Particle ps[]; };
layout(std430, set = 0, binding = 0) buffer mtl_buffer_ps_as_float { precise float ps_as_float[]; }; // 'ps' read as float
layout(std430, set = 0, binding = 0) buffer mtl_buffer_ps_as_vec2 { precise vec2 ps_as_vec2[]; }; // 'ps' read as float2

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void add_to_ps(uint p, float v)
{
    ps_as_float[p] += v;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uint mass = i * 8u + 6u;
    uint q = i;
    uint vel = q * 4u + 2u;
    ps_as_vec2[vel] = ps_as_vec2[vel] * ps_as_float[mass];
    add_to_ps(i * 8u + 6u, 1.0);
}
