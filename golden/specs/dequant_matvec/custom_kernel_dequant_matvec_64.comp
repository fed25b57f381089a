#version 450
// Translated by mtl2glsl 0.1.0 from dequant_matvec.json, kernel custom_kernel_dequant_matvec_64
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_w { uint8_t w[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_scales { float16_t scales[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_biases { float16_t biases[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 4) readonly buffer mtl_buffer_x_shape { int x_shape[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// SIMD-group functions for 32-wide subgroups (native: Metal's 32 lanes are the device's subgroup).
uint mtl_sg_lane() { return gl_SubgroupInvocationID; }
uint mtl_sg_id() { return gl_SubgroupID; }

uint mtl_thread_index_in_simdgroup() { return mtl_sg_lane(); }
uint mtl_simdgroup_index_in_threadgroup() { return mtl_sg_id(); }

float mtl_sg_reduce_sum(float x, bool p)
{
    return subgroupAdd(p ? x : float(0));
}

float mtl_simd_reduce_sum(float x, bool p) { return mtl_sg_reduce_sum(x, p); }

float simd_sum(float x) { return mtl_simd_reduce_sum(x, true); }

void main()
{
    uvec3 thread_position_in_grid = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID);
    uint thread_index_in_simdgroup = mtl_thread_index_in_simdgroup();
    uint row = thread_position_in_grid.y;
    uint lane = thread_index_in_simdgroup;
    uint K = uint(x_shape[0]);
    uint groups = K / 64u;
    float acc = 0.0;
    for (uint j = lane; j < K / 2u; j += 32u)
    {
        uint8_t q = w[row * (K / 2u) + j];
        uint g = (2u * j) / 64u;
        precise float sc = float(scales[row * groups + g]);
        precise float bi = float(biases[row * groups + g]);
        acc += (sc * float(int(q) & 15) + bi) * x[2u * j] + (sc * float(int(q) >> 4) + bi) * x[2u * j + 1u];
    }
    acc = simd_sum(acc);
    if (lane == 0u)
    {
        out_[row] = acc;
    }
}
