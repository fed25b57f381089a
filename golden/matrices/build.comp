#version 450
// Translated by mtl2glsl 0.1.0 from matrices.metal, kernel build

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_v { vec4 v[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise mat4 out_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out34 { precise mat3x4 out34[]; };

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
    precise vec4 a = v[2u * i];
    precise vec4 b = v[2u * i + 1u];
    precise mat4 m = mat4(a, b, a.wzyx, b.yxwz);
    precise mat4 d = mat4(2.0);
    precise mat4 z = mat4(0.0);
    m *= d;
    m += z;
    m -= mat4(1.0);
    m *= 0.25;
    m[3] = vec4(float(i), 1.0, 2.0, 3.0);
    m[2][1] = -7.0;
    m[1].zw = a.xy;
    m[0].w = b.x;
    out_[i] = m;
    precise mat3x4 s = mat3x4(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 1e+01, 11.0, 12.0);
    precise mat3x4 t = s * a.x;
    out34[i] = t + s;
}
