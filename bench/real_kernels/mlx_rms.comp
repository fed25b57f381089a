#version 450
// mlx_rms.comp: MLX's rms<float32> (rms_norm.metal rms_single_row) written by hand in GLSL, the same algorithm on
// the translated kernel's interface (bench/real_kernels.py): one workgroup per row, 4 consecutive floats a thread,
// the sum of squares reduced in each subgroup then across them through shared memory. Portable over subgroup widths.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { float w[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Y { float y[]; };
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
    uint row = gl_WorkGroupID.x, lid = gl_LocalInvocationID.x;
    uint base = row * p.axis_size + lid * 4u;
    bool full = lid * 4u + 4u <= p.axis_size;
    float v[4];
    float acc = 0.0;
    for (uint i = 0u; i < 4u; i++) {
        v[i] = (full || lid * 4u + i < p.axis_size) ? x[base + i] : 0.0;
        acc += v[i] * v[i];
    }
    acc = subgroupAdd(acc);
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
    float r = inv_rms;
    for (uint i = 0u; i < 4u; i++)
        if (full || lid * 4u + i < p.axis_size)
            y[base + i] = w[p.w_stride * (lid * 4u + i)] * (v[i] * r);
}
