#version 450
// Translated by mtl2glsl 0.1.0 from function_constants.metal, kernel narrow_constants
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

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_dst { int dst[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_scaled { precise float16_t scaled[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

uint mtl_fc_value(uint v) { return v; } // a value, not a constant: converting it needs no Kernel capability
layout(constant_id = 104) const uint mtl_fc_FC_rows_n = 0u; // [[function_constant(60000)]] ushort FC_rows_n
uint16_t FC_rows_n = uint16_t(mtl_fc_value(mtl_fc_FC_rows_n));
layout(constant_id = 106) const uint mtl_fc_FC_shift = 0u; // [[function_constant(60001)]] uchar FC_shift
uint8_t FC_shift = uint8_t(mtl_fc_value(mtl_fc_FC_shift));
int mtl_fc_value(int v) { return v; } // a value, not a constant: converting it needs no Kernel capability
layout(constant_id = 100) const int mtl_fc_FC_bias = 0; // [[function_constant(6)]] char FC_bias
int8_t FC_bias = int8_t(mtl_fc_value(mtl_fc_FC_bias));
layout(constant_id = 108) const uint FC_big = 0u; // [[function_constant(65535)]]
layout(constant_id = 109) const bool mtl_defined_FC_big = false; // [[is_function_constant_defined(65535)]]
float mtl_fc_value(float v) { return v; } // a value, not a constant: converting it needs no Kernel capability
layout(constant_id = 102) const float mtl_fc_FC_scale = 0.0; // [[function_constant(7)]] half FC_scale
float16_t FC_scale = float16_t(mtl_fc_value(mtl_fc_FC_scale));

void main()
{
    uvec3 mtl_ntg = gl_WorkGroupSize; // a value, not a constant: converting it to 8 or 16 bits needs no Kernel capability
    u16vec3 ntg = u16vec3(mtl_ntg);
    uint16_t tid = uint16_t(gl_LocalInvocationIndex);
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    memoryBarrierShared();
    barrier();
    uint16_t rows = FC_rows_n;
    int v = int(i % uint(rows)) << int(FC_shift);
    v += int(FC_bias);
    v += mtl_defined_FC_big ? int(FC_big & 65535u) : -1;
    dst[i] = v + int(ntg.x) * 1000 + int(tid) * 100000;
    scaled[i] = float16_t(i % 64u) * FC_scale;
}
