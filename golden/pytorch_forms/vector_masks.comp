#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel vector_masks
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_h { f16vec2 h[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_l { i64vec2 l[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_c { i8vec3 c[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_ { uint out_[]; };

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
    precise const f16vec2 ha = h[2u * i];
    precise const f16vec2 hb = h[2u * i + 1u];
    const i64vec2 la = l[2u * i];
    const i64vec2 lb = l[2u * i + 1u];
    const i8vec3 ca = c[2u * i];
    const i8vec3 cb = c[2u * i + 1u];
    out_[i] = (all(equal(ha, hb)) ? 1u : 0u) | (any(notEqual(ha, hb)) ? 2u : 0u) | (all(lessThan(la, lb)) ? 4u : 0u) | (any(greaterThanEqual(la, lb)) ? 8u : 0u) | (all(lessThanEqual(ca, cb)) ? 16u : 0u) | (any(greaterThan(ca, cb)) ? 32u : 0u);
}
