#version 450
// Translated by mtl2glsl 0.1.0 from packed.metal, kernel mask_vectors
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { u8vec3 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { u8vec2 b[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_c { u8vec3 c[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_d { u8vec4 d[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_bits { uint bits[]; };

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
    bvec3 x = bvec3(a[i]);
    bvec2 y = bvec2(b[i]);
    c[i] = u8vec3(bvec3(x.x && y.y, x.y || y.x, !x.z));
    c[i].x = uint8_t(bvec3(c[i]).x || x.z);
    d[i] = u8vec4(bvec4(y, x.zy));
    bits[i] = uint(x.x) | uint(x.y) << 1 | uint(x.z) << 2 | uint(y[0]) << 3 | uint(bvec2(b[i])[1]) << 4;
}
