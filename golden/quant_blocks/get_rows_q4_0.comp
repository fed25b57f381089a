#version 450
// Translated by mtl2glsl 0.1.0 from quant_blocks.metal, kernel get_rows_q4_0
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct block_q4_0
{
    float16_t d;
    uint8_t qs[16];
};

struct get_rows_args
{
    int ne00;
    uint64_t nb01;
    uint64_t nb1;
    uint64_t nb10;
};

// buffer 1, 'src0' (void*): read only through the views below
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src0_as_uint16_t { uint16_t src0_as_uint16_t[]; }; // 'src0' read as ushort
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src0_as_float16_t { float16_t src0_as_float16_t[]; }; // 'src0' read as half
// buffer 2, 'src1' (void*): read only through the views below
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_src1_as_int { int src1_as_int[]; }; // 'src1' read as int
// buffer 3, 'dst' (void*): read only through the views below
layout(std430, set = 0, binding = 3) buffer mtl_buffer_dst_as_vec4 { precise vec4 dst_as_vec4[]; }; // 'dst' read as float4

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) get_rows_args args;
} mtl_params;

// threads_per_threadgroup: a partial threadgroup at the grid's edge counts only its threads.
uvec3 mtl_threads_per_threadgroup()
{
    return min(gl_WorkGroupSize, mtl_params.mtl_threads_per_grid - gl_WorkGroupID * gl_WorkGroupSize);
}

uint mtl_thread_index_in_threadgroup()
{
    uvec3 size = mtl_threads_per_threadgroup();
    return gl_LocalInvocationID.x + size.x * (gl_LocalInvocationID.y + size.y * gl_LocalInvocationID.z);
}

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

// Memory read and written member by member (docs/translator.md, "Pointers").
// 'dst' written as float4x4 in 16-byte steps, member by member
void mtl_store_dst_mat4(uint i, mat4 v)
{
    for (uint k0 = 0u; k0 < 4u; k0++)
    {
        uint mtl_k0 = i + k0;
        dst_as_vec4[mtl_k0] = v[k0];
    }
}

void dequantize_q4_0_float4x4_src0(uint xb, int16_t il, inout mat4 reg)
{
    uint qs = xb + 1u;
    precise const float d = float(src0_as_float16_t[xb]);
    const uint16_t shift = uint16_t(bool(il) ? 4 : 0);
    for (int i = 0; i < 8; i++)
    {
        const uint16_t w = uint16_t(int(src0_as_uint16_t[qs + uint(i)]) >> int(shift));
        reg[i / 2][2 * (mtl_rem(i, 2)) + 0] = d * (float(int(w) & 15) - 8.0);
        reg[i / 2][2 * (mtl_rem(i, 2)) + 1] = d * (float((int(w) >> 8) & 15) - 8.0);
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    get_rows_args args = mtl_params.args;
    uvec3 tgpig = gl_WorkGroupID;
    uint16_t tiitg = uint16_t(mtl_thread_index_in_threadgroup());
    u16vec3 ntg = u16vec3(mtl_threads_per_threadgroup());
    const int r = src1_as_int[(uint(uint64_t(tgpig.x) * args.nb10)) / 4u];
    uint psrc = (uint(uint64_t(r) * args.nb01)) / 2u;
    uint pdst = (uint(uint64_t(tgpig.x) * args.nb1)) / 16u;
    for (int ind = int(tiitg); ind < args.ne00 / 16; ind += int(ntg.x))
    {
        precise mat4 temp = mat4(0.0);
        dequantize_q4_0_float4x4_src0(psrc + uint(ind / 2) * 9u, int16_t(mtl_rem(ind, 2)), temp);
        mtl_store_dst_mat4(pdst + uint(ind) * 4u, temp);
    }
}
