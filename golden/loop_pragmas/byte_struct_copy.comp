#version 450
// Translated by mtl2glsl 0.1.0 from loop_pragmas.metal, kernel byte_struct_copy
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : require // [[unroll]]: Metal's loop pragmas

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src { float16_t src[]; };
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src_as_f16vec4 { f16vec4 src_as_f16vec4[]; }; // 'src' read as half4
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float16_t out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint shift;
} mtl_params;

// Threadgroup memory.
precise shared float16_t tile[640];

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'src' read as half4 at a multiple of its scalars' size: whole where aligned, else component by component
f16vec4 mtl_load_src_f16vec4_at(uint i)
{
    if (i % 4u == 0u)
        return src_as_f16vec4[i / 4u];
    return f16vec4(src[i], src[i + 1u], src[i + 2u], src[i + 3u]);
}

const int COLS = 4;
const int READS = 8;
const int ROWS = 16;
const int LD = COLS * READS + 8;

void main()
{
    uint shift = mtl_params.shift;
    uint16_t tid = uint16_t(gl_LocalInvocationIndex);
    uint group = gl_WorkGroupID.x;
    const uint16_t r = uint16_t(int(tid) / COLS);
    const uint16_t c = uint16_t((mtl_rem(int(tid), COLS)) * READS);
    uint from = shift + group * uint(ROWS) * uint(COLS) * uint(READS);
    {
        precise f16vec4 ReadVector_0 = mtl_load_src_f16vec4_at(from + uint(int(r) * COLS * READS + int(c)));
        precise f16vec4 ReadVector_1 = mtl_load_src_f16vec4_at(from + uint(int(r) * COLS * READS + int(c) + 4));
        tile[int(r) * LD + int(c)] = ReadVector_0.x;
        tile[int(r) * LD + int(c) + 1] = ReadVector_0.y;
        tile[int(r) * LD + int(c) + 2] = ReadVector_0.z;
        tile[int(r) * LD + int(c) + 3] = ReadVector_0.w;
        tile[int(r) * LD + int(c) + 4] = ReadVector_1.x;
        tile[int(r) * LD + int(c) + 5] = ReadVector_1.y;
        tile[int(r) * LD + int(c) + 6] = ReadVector_1.z;
        tile[int(r) * LD + int(c) + 7] = ReadVector_1.w;
    }
    memoryBarrierShared();
    barrier();
    [[unroll]] for (int i = 0; i < READS; i++)
    {
        out_[group * uint(ROWS) * uint(COLS) * uint(READS) + uint(int(r) * COLS * READS) + uint(c) + uint(i)] = tile[int(r) * LD + int(c) + i] * 2.0hf;
    }
}
