#version 450
// Translated by mtl2glsl 0.1.0 from bfloat.metal, kernel bf4_elementwise
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

struct Frame
{
    u16vec3 dir;
    u16vec4 color;
    float gain;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { u16vec4 x[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_y { precise u16vec4 y[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_frames { precise Frame frames[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_sums { precise float sums[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) float a;
} mtl_params;

// Threadgroup memory.
precise shared u16vec4 tile[32];

// bfloat: the upper 16 bits of a float, rounded to nearest even; NaN stays a quiet NaN.
float mtl_bf16_to_float(uint16_t b)
{
    return uintBitsToFloat(uint(b) << 16);
}

uint16_t mtl_float_to_bf16(float f)
{
    uint u = floatBitsToUint(f);
    if (isnan(f))
        return uint16_t((u >> 16) | 0x40u);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

vec3 mtl_bf16_to_float(u16vec3 b)
{
    return uintBitsToFloat(uvec3(b) << 16);
}

u16vec3 mtl_float_to_bf16(vec3 f)
{
    uvec3 u = floatBitsToUint(f);
    return u16vec3(mix((u + 0x7fffu + ((u >> 16) & 1u)) >> 16, (u >> 16) | 0x40u, isnan(f)));
}

vec4 mtl_bf16_to_float(u16vec4 b)
{
    return uintBitsToFloat(uvec4(b) << 16);
}

u16vec4 mtl_float_to_bf16(vec4 f)
{
    uvec4 u = floatBitsToUint(f);
    return u16vec4(mix((u + 0x7fffu + ((u >> 16) & 1u)) >> 16, (u >> 16) | 0x40u, isnan(f)));
}

void main()
{
    float a = mtl_params.a;
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint l = gl_LocalInvocationID.x;
    precise u16vec4 v = x[i];
    y[i] = mtl_float_to_bf16(mtl_bf16_to_float(y[i]) * vec4(a));
    y[i] = mtl_float_to_bf16(mtl_bf16_to_float(y[i]) + mtl_bf16_to_float(v));
    tile[l] = mtl_float_to_bf16(vec4(mtl_bf16_to_float(v.w), mtl_bf16_to_float(v[2]), mtl_bf16_to_float(v.y), 1.0));
    memoryBarrierShared();
    barrier();
    precise Frame f = frames[i];
    precise vec3 d = vec3(mtl_bf16_to_float(f.dir.x), mtl_bf16_to_float(f.dir.y), mtl_bf16_to_float(f.dir.z));
    f.color = mtl_float_to_bf16(vec4(d, f.gain) * vec4(mtl_bf16_to_float(tile[l])));
    f.dir = mtl_float_to_bf16(mtl_bf16_to_float(f.dir) + 1.0);
    frames[i] = f;
    sums[i] = dot(vec4(mtl_bf16_to_float(v)), vec4(1.0)) + mtl_bf16_to_float(f.color[3]);
}
