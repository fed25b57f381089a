#version 450
// Translated by mtl2glsl 0.1.0 from memory_views.metal, kernel tg_bytes
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { uint64_t x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { uint y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared uint8_t shmem[288]; // char shmem[288], read as several types: 1-byte words

// Memory read and written member by member (docs/translator.md, "Pointers").
// threadgroup 'shmem' (1-byte words) written as ulong at byte b
void mtl_tg_store_shmem_uint64_t(uint b, uint64_t v)
{
    uint w = b;
    shmem[w] = unpack8(unpack32(v)[0])[0];
    shmem[w + 1u] = unpack8(unpack32(v)[0])[1];
    shmem[w + 2u] = unpack8(unpack32(v)[0])[2];
    shmem[w + 3u] = unpack8(unpack32(v)[0])[3];
    shmem[w + 4u] = unpack8(unpack32(v)[1])[0];
    shmem[w + 5u] = unpack8(unpack32(v)[1])[1];
    shmem[w + 6u] = unpack8(unpack32(v)[1])[2];
    shmem[w + 7u] = unpack8(unpack32(v)[1])[3];
}

// threadgroup 'shmem' (1-byte words) written as uchar at byte b
void mtl_tg_store_shmem_uint8_t(uint b, uint8_t v)
{
    uint w = b;
    shmem[w] = v;
}

// threadgroup 'shmem' (1-byte words) read as uchar at byte b
uint8_t mtl_tg_load_shmem_uint8_t(uint b)
{
    uint8_t v;
    uint w = b;
    v = uint8_t(shmem[w]);
    return v;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint vals = 0u;
    uint signs = (vals + 32u) * 8u;
    mtl_tg_store_shmem_uint64_t((vals + lid) * 8u, x[i]);
    mtl_tg_store_shmem_uint8_t(signs + lid, uint8_t(lid * 7u));
    memoryBarrierShared();
    barrier();
    uint grid = (vals + (lid + 3u) % 32u) * 8u;
    y[i] = uint(mtl_tg_load_shmem_uint8_t(grid + 0u)) + uint(mtl_tg_load_shmem_uint8_t(grid + 5u)) * 256u + uint(mtl_tg_load_shmem_uint8_t(signs + (31u - lid))) * 65536u;
}
