#version 450
// mlx_rms_vec4.comp: mlx_rms.comp (MLX's rms<float32> by hand) with each thread's 4 consecutive floats read and
// written as one vec4 where the row length is a multiple of 4 (MLX's Metal code reads 4 scalars; whether the
// compiler may merge them depends on the alignment it can prove): what 16-byte accesses change on the same algorithm.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer X { vec4 x4[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { vec4 w4[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Y { vec4 y4[]; };
layout(push_constant, std430) uniform Params
{
    layout(offset = 16) float eps;
    uint axis_size;
    uint w_stride;
} p;

shared float sums[128];
shared float inv_rms;

void main()
{
    // (this variant takes axis_size % 4 == 0, w_stride == 1: the benchmark's rows)
    uint lid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * (p.axis_size / 4u) + lid;
    bool inside = lid * 4u < p.axis_size;
    vec4 v = inside ? x4[base] : vec4(0.0);
    float acc = subgroupAdd(dot(v, v));
    if (gl_SubgroupInvocationID == 0u)
        sums[gl_SubgroupID] = acc;
    barrier();
    if (gl_SubgroupID == 0u) {
        float s = 0.0;
        for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize)
            s += sums[i];
        s = subgroupAdd(s);
        if (gl_SubgroupInvocationID == 0u)
            inv_rms = inversesqrt(s / float(p.axis_size) + p.eps);
    }
    barrier();
    if (inside)
        y4[base] = w4[lid] * (v * inv_rms);
}
