#version 450
// Translated by mtl2glsl 0.1.0 from steel_forms.metal, kernel struct_words
#extension GL_EXT_shader_explicit_arithmetic_types : require

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

struct Pair
{
    float a;
    int b;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_n { int n[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_fa { precise float fa[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_ib { int ib[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared uint mem[64]; // char mem[256], read as several types: 4-byte words

// Memory read and written member by member (docs/translator.md, "Pointers").
// threadgroup 'mem' (4-byte words) written as float at byte b
void mtl_tg_store_mem_float(uint b, float v)
{
    uint w = b / 4u;
    mem[w] = floatBitsToUint(v);
}

// threadgroup 'mem' (4-byte words) written as int at byte b
void mtl_tg_store_mem_int(uint b, int v)
{
    uint w = b / 4u;
    mem[w] = uint(v);
}

// threadgroup 'mem' written as Pair at byte b, member by member
void mtl_tg_store_mem_Pair(uint b, Pair v)
{
    mtl_tg_store_mem_float(b, v.a);
    mtl_tg_store_mem_int(b + 4u, v.b);
}

// threadgroup 'mem' (4-byte words) read as float at byte b
float mtl_tg_load_mem_float(uint b)
{
    float v;
    uint w = b / 4u;
    v = uintBitsToFloat(uint(mem[w]));
    return v;
}

// threadgroup 'mem' (4-byte words) read as int at byte b
int mtl_tg_load_mem_int(uint b)
{
    int v;
    uint w = b / 4u;
    v = int(uint(mem[w]));
    return v;
}

// threadgroup 'mem' read as Pair at byte b, member by member
Pair mtl_tg_load_mem_Pair(uint b)
{
    Pair v;
    v.a = mtl_tg_load_mem_float(b);
    v.b = mtl_tg_load_mem_int(b + 4u);
    return v;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    uint p = 0u;
    uint f = 0u;
    uint w = 0u;
    mtl_tg_store_mem_Pair((p + lid) * 8u, Pair(x[g * 32u + lid], n[g * 32u + lid]));
    memoryBarrierShared();
    barrier();
    precise float a = mtl_tg_load_mem_float((f + 2u * lid) * 4u);
    fa[g * 32u + lid] = a;
    ib[g * 32u + lid] = mtl_tg_load_mem_int((w + (2u * lid + 1u)) * 4u);
    memoryBarrierShared();
    barrier();
    mtl_tg_store_mem_float((p + (31u - lid)) * 8u, 2.0 * a);
    memoryBarrierShared();
    barrier();
    precise Pair q = mtl_tg_load_mem_Pair((p + lid) * 8u);
    y[g * 32u + lid] = q.a + float(q.b);
}
