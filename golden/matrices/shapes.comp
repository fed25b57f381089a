#version 450
// Translated by mtl2glsl 0.1.0 from matrices.metal, kernel shapes

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_as { mat2x3 as[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_bs { mat3x2 bs[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_ab { precise mat3 ab[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_ba { precise mat2 ba[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_at_minus_b { precise mat3x2 at_minus_b[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_dets { precise vec4 dets[]; };
layout(std430, set = 0, binding = 6) writeonly buffer mtl_buffer_vecs { precise vec4 vecs[]; };

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
    precise mat2x3 a = as[i];
    precise mat3x2 b = bs[i];
    precise mat3 p = a * b;
    precise mat2 q = b * a;
    ab[i] = p;
    ba[i] = q;
    at_minus_b[i] = transpose(a) - b + -(0.5 * b) + b * 0.5;
    dets[i] = vec4(determinant(p), determinant(q), determinant(transpose(q)), determinant(mat3(2.0)));
    precise vec3 w = a * b[0];
    precise vec2 r = w * a;
    vecs[i] = vec4(w.zy, r.yx) + vec4(a[1].xz, b[2].yx);
}
