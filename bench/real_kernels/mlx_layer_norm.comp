#version 450
// mlx_layer_norm.comp: MLX's layer_norm<float32> (layer_norm.metal layer_norm_single_row) written by hand in GLSL,
// the same algorithm on the translated kernel's interface (bench/real_kernels.py): one workgroup per row, 8
// consecutive floats a thread kept in registers, the mean then the variance each reduced in subgroups and across
// them through shared memory, then w * (x - mean) * rsqrt(var + eps) + b. The partial row's loops run to 8 with a
// test (the Metal source runs them to n = axis_size - lid * 8 < 8), so that the array is indexed by constants.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer W { float w[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Y { float y[]; };
layout(push_constant, std430) uniform Params
{
    layout(offset = 16) float eps;
    uint axis_size;
    uint w_stride;
    uint b_stride;
} p;

shared float sums[128];

float row_sum(float v)
{
    v = subgroupAdd(v);
    barrier();                               // the previous use of sums is over
    if (gl_SubgroupInvocationID == 0u)
        sums[gl_SubgroupID] = v;
    barrier();
    v = 0.0;
    for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize)
        v += sums[i];
    return subgroupAdd(v);
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * p.axis_size + lid * 8u;
    int n = int(p.axis_size) - int(lid * 8u);     // this thread's elements (8 unless the row ends here)
    float v[8];
    float s = 0.0;
    for (int i = 0; i < 8; i++) {
        v[i] = i < n ? x[base + uint(i)] : 0.0;
        s += v[i];
    }
    float mean = row_sum(s) / float(p.axis_size);
    float q = 0.0;
    for (int i = 0; i < 8; i++) {
        v[i] = i < n ? v[i] - mean : 0.0;
        q += v[i] * v[i];
    }
    float r = inversesqrt(row_sum(q) / float(p.axis_size) + p.eps);
    for (int i = 0; i < 8; i++)
        if (i < n)
            y[base + uint(i)] = w[p.w_stride * (lid * 8u + uint(i))] * (v[i] * r) + b[p.b_stride * (lid * 8u + uint(i))];
}
