#version 450
// ggml_soft_max.comp: ggml's kernel_soft_max_f32_4 without a mask or sinks written by hand in GLSL, the same
// algorithm on the translated kernel's interface (bench/real_kernels.py): one workgroup per row, threads striding
// over its vec4s; pass 1 the maximum of x * scale, pass 2 exp(x * scale - max) written to the result and summed,
// pass 3 the result read again and divided by the sum; each reduction in subgroups then across them in shared memory.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(std430, set = 0, binding = 4) buffer Y { vec4 y[]; };
layout(std430, set = 0, binding = 0) readonly buffer Args   // lm_ggml_metal_kargs_soft_max: the fields used
{
    layout(offset = 0) int ne00;
    layout(offset = 16) uint nb01;       // low word of a uint64_t
    layout(offset = 80) uint nb1;
    layout(offset = 104) float scale;
} a;

shared float part[128];

float across_max(float v)
{
    v = subgroupMax(v);
    if (gl_NumSubgroups == 1u)
        return v;
    barrier();
    if (gl_SubgroupInvocationID == 0u)
        part[gl_SubgroupID] = v;
    barrier();
    v = -1.0 / 0.0;
    for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize)
        v = max(v, part[i]);
    return subgroupMax(v);
}

float across_sum(float v)
{
    v = subgroupAdd(v);
    if (gl_NumSubgroups == 1u)
        return v;
    barrier();
    if (gl_SubgroupInvocationID == 0u)
        part[gl_SubgroupID] = v;
    barrier();
    v = 0.0;
    for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize)
        v += part[i];
    return subgroupAdd(v);
}

void main()
{
    uint xr = gl_WorkGroupID.x * (a.nb01 / 16u), yr = gl_WorkGroupID.x * (a.nb1 / 16u), n = uint(a.ne00) / 4u;
    vec4 m4 = vec4(-1.0 / 0.0);
    for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x)
        m4 = max(m4, x[xr + i] * a.scale);
    float m = across_max(max(max(m4.x, m4.y), max(m4.z, m4.w)));
    vec4 s4 = vec4(0.0);
    for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x) {
        vec4 e = exp(x[xr + i] * a.scale - m);
        s4 += e;
        y[yr + i] = e;
    }
    float inv = 1.0 / across_sum(s4.x + s4.y + s4.z + s4.w);
    for (uint i = gl_LocalInvocationID.x; i < n; i += gl_WorkGroupSize.x)
        y[yr + i] *= inv;
}
