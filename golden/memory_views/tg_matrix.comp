#version 450
// Translated by mtl2glsl 0.1.0 from memory_views.metal, kernel tg_matrix
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float16_t x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { precise float y[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_bits { uint bits[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared uint16_t tile[256]; // char tile[512], read as several types: 2-byte words

// Memory read and written member by member (docs/translator.md, "Pointers").
// threadgroup 'tile' (2-byte words) written as half4 at byte b
void mtl_tg_store_tile_f16vec4(uint b, f16vec4 v)
{
    uint w = b / 2u;
    tile[w] = float16BitsToUint16(v[0]);
    tile[w + 1u] = float16BitsToUint16(v[1]);
    tile[w + 2u] = float16BitsToUint16(v[2]);
    tile[w + 3u] = float16BitsToUint16(v[3]);
}

// threadgroup 'tile' written as half2x4 at byte b, column by column
void mtl_tg_store_tile_f16mat2x4(uint b, f16mat2x4 v)
{
    mtl_tg_store_tile_f16vec4(b, v[0]);
    mtl_tg_store_tile_f16vec4(b + 8u, v[1]);
}

// threadgroup 'tile' (2-byte words) read as half at byte b
float16_t mtl_tg_load_tile_float16_t(uint b)
{
    float16_t v;
    uint w = b / 2u;
    v = uint16BitsToFloat16(uint16_t(tile[w]));
    return v;
}

// threadgroup 'tile' (2-byte words) written as half at byte b
void mtl_tg_store_tile_float16_t(uint b, float16_t v)
{
    uint w = b / 2u;
    tile[w] = float16BitsToUint16(v);
}

// threadgroup 'tile' (2-byte words) read as half4 at byte b
f16vec4 mtl_tg_load_tile_f16vec4(uint b)
{
    f16vec4 v;
    uint w = b / 2u;
    v[0] = uint16BitsToFloat16(uint16_t(tile[w]));
    v[1] = uint16BitsToFloat16(uint16_t(tile[w + 1u]));
    v[2] = uint16BitsToFloat16(uint16_t(tile[w + 2u]));
    v[3] = uint16BitsToFloat16(uint16_t(tile[w + 3u]));
    return v;
}

// threadgroup 'tile' read as half2x4 at byte b, column by column
f16mat2x4 mtl_tg_load_tile_f16mat2x4(uint b)
{
    f16mat2x4 v;
    v[0] = mtl_tg_load_tile_f16vec4(b);
    v[1] = mtl_tg_load_tile_f16vec4(b + 8u);
    return v;
}

// threadgroup 'tile' (2-byte words) read as uint at byte b
uint mtl_tg_load_tile_uint(uint b)
{
    uint v;
    uint w = b / 2u;
    v = uint(pack32(u16vec2(tile[w], tile[w + 1u])));
    return v;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint m = 0u;
    uint h = 0u;
    mtl_tg_store_tile_f16mat2x4((m + lid) * 16u, f16mat2x4(f16vec4(x[8u * i + 0u], x[8u * i + 1u], x[8u * i + 2u], x[8u * i + 3u]), f16vec4(x[8u * i + 4u], x[8u * i + 5u], x[8u * i + 6u], x[8u * i + 7u])));
    memoryBarrierShared();
    barrier();
    mtl_tg_store_tile_float16_t((h + (8u * lid + 5u)) * 2u, -mtl_tg_load_tile_float16_t((h + (8u * lid + 5u)) * 2u));
    memoryBarrierShared();
    barrier();
    precise f16mat2x4 a = mtl_tg_load_tile_f16mat2x4((m + (31u - lid)) * 16u);
    uint w = 0u;
    y[i] = float(a[0][1]) + 4.0 * float(a[1][1]);
    bits[i] = mtl_tg_load_tile_uint((w + (4u * ((lid + 3u) % 32u) + 2u)) * 4u);
}
