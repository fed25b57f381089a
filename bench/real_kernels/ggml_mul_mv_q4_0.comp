#version 450
// ggml_mul_mv_q4_0.comp: ggml's kernel_mul_mv_q4_0_f32 (mul_vec_q_n_f32_impl<block_q4_0, 4>) for one vector written
// by hand in GLSL, the same algorithm on the translated kernel's interface (bench/real_kernels.py): workgroups of
// 32 x NSG threads, each 32-thread group 4 rows; each thread takes half of a block_q4_0 (18 bytes: a half scale, 16
// bytes of 4-bit codes) in 16 blocks at a time, its 16 vector values pre-scaled by 1, 1/16, 1/256, 1/4096 so that
// the codes are used without shifts (ggml's trick), and 16-bit loads; the 32 partial sums of each row are added in
// a subgroup (through shared memory where subgroups are narrower than 32).
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 1) readonly buffer Q { uint16_t q[]; };        // the blocks as 16-bit words
layout(std430, set = 0, binding = 1) readonly buffer QH { float16_t qh[]; };     // the same, for the scales
layout(std430, set = 0, binding = 2) readonly buffer V { float v[]; };
layout(std430, set = 0, binding = 3) writeonly buffer D { float dst[]; };
layout(push_constant, std430) uniform Args   // lm_ggml_metal_kargs_mul_mv at offset 16: the fields used
{
    layout(offset = 16) int ne00;
    layout(offset = 20) int ne01;
    layout(offset = 40) uint nb01;       // low word of a uint64_t
} a;

const uint NR0 = 4u, NQ = 16u;
shared float part[4 * 64];

void main()
{
    uint lane = gl_LocalInvocationID.x, sg = gl_LocalInvocationID.y;
    uint r0 = (gl_WorkGroupID.x * gl_WorkGroupSize.y + sg) * NR0;
    uint nb = uint(a.ne00) / 32u;
    uint ix = lane / 2u, il = (lane % 2u) * 8u;     // the block, and which half of its codes (0 or 8 bytes in)
    uint rowstride = a.nb01 / 2u;                    // in 16-bit words
    float sumf[4] = float[4](0.0, 0.0, 0.0, 0.0);
    float yl[16];
    uint yb = ix * 32u + il;
    for (uint ib = ix; ib < nb; ib += NQ) {
        float sumy = 0.0;
        for (uint i = 0u; i < 8u; i += 2u) {
            sumy += v[yb + i] + v[yb + i + 1u] + v[yb + i + 16u] + v[yb + i + 17u];
            yl[i] = v[yb + i];
            yl[i + 1u] = v[yb + i + 1u] / 256.0;
            yl[i + 8u] = v[yb + i + 16u] / 16.0;
            yl[i + 9u] = v[yb + i + 17u] / 4096.0;
        }
        for (uint row = 0u; row < NR0; row++) {
            uint blk = (r0 + row) * rowstride + ib * 9u;     // 9 words a block
            float d = float(qh[blk]);
            uint qs = blk + 1u + il / 2u;
            vec4 acc = vec4(0.0);
            for (uint i = 0u; i < 8u; i += 2u) {
                uint c = uint(q[qs + i / 2u]);
                acc.x += yl[i] * float(c & 0x000Fu);
                acc.y += yl[i + 1u] * float(c & 0x0F00u);
                acc.z += yl[i + 8u] * float(c & 0x00F0u);
                acc.w += yl[i + 9u] * float(c & 0xF000u);
            }
            sumf[row] += d * (sumy * -8.0 + acc.x + acc.y + acc.z + acc.w);
        }
        yb += 32u * NQ;
    }
    if (gl_SubgroupSize >= 32u) {
        for (uint row = 0u; row < NR0; row++) {
            float t = subgroupAdd(sumf[row]);
            if (lane == 0u && r0 + row < uint(a.ne01))
                dst[r0 + row] = t;
        }
    } else {                                         // narrower subgroups (lavapipe): the 32 lanes through memory
        uint t = gl_LocalInvocationIndex;
        for (uint row = 0u; row < NR0; row++)
            part[row * 64u + t] = sumf[row];
        barrier();
        if (lane < NR0) {
            float s = 0.0;
            for (uint i = 0u; i < 32u; i++)
                s += part[lane * 64u + sg * 32u + i];
            if (r0 + lane < uint(a.ne01))
                dst[r0 + lane] = s;
        }
    }
}
