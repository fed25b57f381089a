#version 450
// Translated by mtl2glsl 0.1.0 from unions.metal, kernel tagged_scale

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Scale
{
    vec4 v;
};

struct Tagged
{
    uint tag;
    float value;
};

layout(std430, set = 0, binding = 0) buffer mtl_buffer_t { Tagged t[]; };

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
    Scale k;
    k.v = vec4(0.5, 2.0, -1.0, 4.0);
    t[i].value *= k.v[t[i].tag % 4u];
    t[i].tag += 1u;
}
