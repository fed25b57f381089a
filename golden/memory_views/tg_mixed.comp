#version 450
// Translated by mtl2glsl 0.1.0 from memory_views.metal, kernel tg_mixed
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
layout(constant_id = 16) const uint mtl_threadgroup_length_0 = 1u; // [[threadgroup(0)]]: elements, set by the runtime
shared uint shmem[(mtl_threadgroup_length_0 * 1u + 3u) / 4u]; // char* shmem, read as several types: 4-byte words

// Memory read and written member by member (docs/translator.md, "Pointers").
// threadgroup 'shmem' (4-byte words) written as float at byte b
void mtl_tg_store_shmem_float(uint b, float v)
{
    uint w = b / 4u;
    shmem[w] = floatBitsToUint(v);
}

// threadgroup 'shmem' (4-byte words) written as int at byte b
void mtl_tg_store_shmem_int(uint b, int v)
{
    uint w = b / 4u;
    shmem[w] = uint(v);
}

// threadgroup 'shmem' (4-byte words) written as half4 at byte b
void mtl_tg_store_shmem_f16vec4(uint b, f16vec4 v)
{
    uint w = b / 4u;
    shmem[w] = pack32(u16vec2(float16BitsToUint16(v[0]), float16BitsToUint16(v[1])));
    shmem[w + 1u] = pack32(u16vec2(float16BitsToUint16(v[2]), float16BitsToUint16(v[3])));
}

// threadgroup 'shmem' (4-byte words) written as float4 at byte b
void mtl_tg_store_shmem_vec4(uint b, vec4 v)
{
    uint w = b / 4u;
    shmem[w] = floatBitsToUint(v[0]);
    shmem[w + 1u] = floatBitsToUint(v[1]);
    shmem[w + 2u] = floatBitsToUint(v[2]);
    shmem[w + 3u] = floatBitsToUint(v[3]);
}

// threadgroup 'shmem' (4-byte words) read as float4 at byte b
vec4 mtl_tg_load_shmem_vec4(uint b)
{
    vec4 v;
    uint w = b / 4u;
    v[0] = uintBitsToFloat(uint(shmem[w]));
    v[1] = uintBitsToFloat(uint(shmem[w + 1u]));
    v[2] = uintBitsToFloat(uint(shmem[w + 2u]));
    v[3] = uintBitsToFloat(uint(shmem[w + 3u]));
    return v;
}

// threadgroup 'shmem' (4-byte words) read as float at byte b
float mtl_tg_load_shmem_float(uint b)
{
    float v;
    uint w = b / 4u;
    v = uintBitsToFloat(uint(shmem[w]));
    return v;
}

// threadgroup 'shmem' (4-byte words) read as int at byte b
int mtl_tg_load_shmem_int(uint b)
{
    int v;
    uint w = b / 4u;
    v = int(uint(shmem[w]));
    return v;
}

// threadgroup 'shmem' (4-byte words) read as half at byte b
float16_t mtl_tg_load_shmem_float16_t(uint b)
{
    float16_t v;
    v = uint16BitsToFloat16(uint16_t((shmem[b / 4u] >> (b % 4u * 8u))));
    return v;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint fv = 0u;
    uint iv = (uint(32 * 4)) / 4u;
    uint h4 = (uint(64 * 4)) / 8u;
    uint h = (uint(64 * 4)) / 2u;
    uint f4 = (uint(128 * 4)) / 16u;
    mtl_tg_store_shmem_float((fv + lid) * 4u, x[i]);
    mtl_tg_store_shmem_int((iv + lid) * 4u, int(lid) * 3);
    mtl_tg_store_shmem_f16vec4((h4 + lid) * 8u, f16vec4(x[i], 1.0hf, 2.0hf, float16_t(lid)));
    mtl_tg_store_shmem_vec4((f4 + lid) * 16u, vec4(x[i]));
    memoryBarrierShared();
    barrier();
    mtl_tg_store_shmem_vec4((f4 + lid) * 16u, vec4(mtl_tg_load_shmem_vec4((f4 + lid) * 16u) * vec4(2.0)));
    y[i] = mtl_tg_load_shmem_float((fv + (31u - lid)) * 4u) + float(mtl_tg_load_shmem_int((iv + (lid + 1u) % 32u) * 4u)) + float(mtl_tg_load_shmem_float16_t((h + (4u * lid + 3u)) * 2u)) + float(mtl_tg_load_shmem_float16_t((h + 4u * ((lid + 5u) % 32u)) * 2u)) + mtl_tg_load_shmem_vec4((f4 + lid) * 16u).y;
}
