#version 450
// Translated by mtl2glsl 0.1.0 from matrices.metal, kernel tg_matrix
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// Partial threadgroups at the grid's edge run as smaller workgroups, so that only existing threads run,
// as in Metal; the threadgroup size asked for is in specialization constants 3, 4, 5.
layout(constant_id = 3) const uint mtl_threadgroup_full_x = 1u;
layout(constant_id = 4) const uint mtl_threadgroup_full_y = 1u;
layout(constant_id = 5) const uint mtl_threadgroup_full_z = 1u;
const uvec3 mtl_threads_per_threadgroup_full = uvec3(mtl_threadgroup_full_x, mtl_threadgroup_full_y, mtl_threadgroup_full_z);
const uint mtl_threadgroup_full_total = mtl_threadgroup_full_x * mtl_threadgroup_full_y * mtl_threadgroup_full_z;
const uint mtl_threadgroup_total = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_elems { float elems[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_points { vec4 points[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise vec4 out_[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_out_f { precise float out_f[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_out_h { precise float16_t out_h[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
precise shared mat4 shared_m;

precise vec3 apply_twice_float3x3_float3(mat3 m, vec3 v)
{
    precise mat3 mm = m * m;
    return mm * v;
}

precise f16vec2 apply_twice_half2x2_half2(f16mat2 m, f16vec2 v)
{
    precise f16mat2 mm = m * m;
    return mm * v;
}

void main()
{
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationIndex;
    uint gid = gl_WorkGroupID.x;
    shared_m[lid / 4u][lid % 4u] = elems[gid * 16u + lid];
    memoryBarrierShared();
    barrier();
    precise mat4 m = shared_m;
    precise vec4 p = points[i];
    out_[i] = m * p + transpose(shared_m) * p;
    precise mat3 n3 = mat3(m[0].xyz, m[1].xyz, m[2].xyz);
    precise vec3 r3 = apply_twice_float3x3_float3(n3, p.xyz);
    precise f16vec2 r2 = apply_twice_half2x2_half2(f16mat2(f16vec2(m[0].xy), f16vec2(m[1].xy)), f16vec2(p.xy));
    out_f[i] = r3.x + r3.y + r3.z;
    out_h[i] = r2.x + r2.y;
}
