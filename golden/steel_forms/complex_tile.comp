#version 450
// Translated by mtl2glsl 0.1.0 from steel_forms.metal, kernel complex_tile

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

struct cfloat
{
    float real;
    float imag;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { cfloat x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_re { precise float re[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_im { precise float im[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_y { precise cfloat y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared uint tile[64]; // cfloat tile[32], read as several types: 4-byte words

// Memory read and written member by member (docs/translator.md, "Pointers").
// threadgroup 'tile' (4-byte words) written as float at byte b
void mtl_tg_store_tile_float(uint b, float v)
{
    uint w = b / 4u;
    tile[w] = floatBitsToUint(v);
}

// threadgroup 'tile' written as cfloat at byte b, member by member
void mtl_tg_store_tile_cfloat(uint b, cfloat v)
{
    mtl_tg_store_tile_float(b, v.real);
    mtl_tg_store_tile_float(b + 4u, v.imag);
}

// threadgroup 'tile' (4-byte words) read as float at byte b
float mtl_tg_load_tile_float(uint b)
{
    float v;
    uint w = b / 4u;
    v = uintBitsToFloat(uint(tile[w]));
    return v;
}

// threadgroup 'tile' read as cfloat at byte b, member by member
cfloat mtl_tg_load_tile_cfloat(uint b)
{
    cfloat v;
    v.real = mtl_tg_load_tile_float(b);
    v.imag = mtl_tg_load_tile_float(b + 4u);
    return v;
}

precise cfloat cfloat_make(float r, float i)
{
    precise cfloat self;
    self.real = r;
    self.imag = i;
    return self;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    if (lid < 16u)
    {
        mtl_tg_store_tile_cfloat((2u * lid) * 8u, x[g * 32u + 2u * lid]);
        mtl_tg_store_tile_cfloat((2u * lid + 1u) * 8u, x[g * 32u + 2u * lid + 1u]);
    }
    memoryBarrierShared();
    barrier();
    uint f = 0u;
    precise float r = mtl_tg_load_tile_float((f + 2u * lid) * 4u);
    precise float i = mtl_tg_load_tile_float((f + (2u * lid + 1u)) * 4u);
    re[g * 32u + lid] = r;
    im[g * 32u + lid] = i;
    memoryBarrierShared();
    barrier();
    mtl_tg_store_tile_cfloat((31u - lid) * 8u, cfloat_make(r, -i));
    memoryBarrierShared();
    barrier();
    y[g * 32u + lid] = mtl_tg_load_tile_cfloat(lid * 8u);
}
