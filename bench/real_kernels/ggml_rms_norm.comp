#version 450
// ggml_rms_norm.comp: ggml's kernel_rms_norm_f32_4 (no fused sources) written by hand in GLSL, the same algorithm on
// the translated kernel's interface (bench/real_kernels.py): one workgroup per row, threads striding over its vec4s,
// the sum of squares reduced in each subgroup then across them through shared memory, then each vec4 read again and
// scaled. Rows at ggml's byte strides (nbf1[0] for the source, nb1 for the result; multiples of 16 bytes).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(std430, set = 0, binding = 4) writeonly buffer Y { vec4 y[]; };
layout(std430, set = 0, binding = 0) readonly buffer Args   // lm_ggml_metal_kargs_norm: the fields used
{
    layout(offset = 0) int ne00;
    layout(offset = 4) int ne00_t;
    layout(offset = 8) uint nb1;         // low word of a uint64_t
    layout(offset = 32) float eps;
    layout(offset = 72) uint nbf1_0;     // low word of nbf1[0]
} a;

shared float sums[128];

void main()
{
    uint xr = gl_WorkGroupID.x * (a.nbf1_0 / 16u), yr = gl_WorkGroupID.x * (a.nb1 / 16u);
    float s = 0.0;
    for (uint i = gl_LocalInvocationID.x; i < uint(a.ne00_t); i += gl_WorkGroupSize.x)
        s += dot(x[xr + i], x[xr + i]);
    s = subgroupAdd(s);
    if (gl_SubgroupInvocationID == 0u)
        sums[gl_SubgroupID] = s;
    barrier();
    s = 0.0;
    for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize)
        s += sums[i];
    s = subgroupAdd(s);
    float scale = 1.0 / sqrt(s / float(a.ne00) + a.eps);
    for (uint i = gl_LocalInvocationID.x; i < uint(a.ne00_t); i += gl_WorkGroupSize.x)
        y[yr + i] = x[xr + i] * scale;
}
