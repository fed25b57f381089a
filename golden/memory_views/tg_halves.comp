#version 450
// Translated by mtl2glsl 0.1.0 from memory_views.metal, kernel tg_halves
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
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_bits { uint bits[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared uint16_t hs[64]; // half hs[64], read as several types: 2-byte words

// Memory read and written member by member (docs/translator.md, "Pointers").
// threadgroup 'hs' (2-byte words) written as half at byte b
void mtl_tg_store_hs_float16_t(uint b, float16_t v)
{
    uint w = b / 2u;
    hs[w] = float16BitsToUint16(v);
}

// threadgroup 'hs' (2-byte words) read as uint at byte b
uint mtl_tg_load_hs_uint(uint b)
{
    uint v;
    uint w = b / 2u;
    v = uint(pack32(u16vec2(hs[w], hs[w + 1u])));
    return v;
}

// threadgroup 'hs' (2-byte words) read as half2 at byte b
f16vec2 mtl_tg_load_hs_f16vec2(uint b)
{
    f16vec2 v;
    uint w = b / 2u;
    v[0] = uint16BitsToFloat16(uint16_t(hs[w]));
    v[1] = uint16BitsToFloat16(uint16_t(hs[w + 1u]));
    return v;
}

// threadgroup 'hs' (2-byte words) read as half at byte b
float16_t mtl_tg_load_hs_float16_t(uint b)
{
    float16_t v;
    uint w = b / 2u;
    v = uint16BitsToFloat16(uint16_t(hs[w]));
    return v;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    mtl_tg_store_hs_float16_t((2u * lid) * 2u, float16_t(x[i]));
    mtl_tg_store_hs_float16_t((2u * lid + 1u) * 2u, -float16_t(x[i]) * 0.5hf);
    memoryBarrierShared();
    barrier();
    uint w = 0u;
    uint h2 = 0u;
    bits[i] = mtl_tg_load_hs_uint((w + (lid + 1u) % 32u) * 4u);
    y[i] = float(mtl_tg_load_hs_f16vec2((h2 + (lid + 2u) % 32u) * 4u).y) + float(mtl_tg_load_hs_float16_t((63u - lid) * 2u));
}
