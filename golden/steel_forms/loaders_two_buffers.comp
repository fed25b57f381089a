#version 450
// Translated by mtl2glsl 0.1.0 from steel_forms.metal, kernel loaders_two_buffers
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

struct TileLoader_float_4_4_5
{
    int src_ld;
    int16_t bi;
    int16_t bj;
    uint dst;
    uint src;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_c { precise float c[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_peek { precise float peek[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int k;
} mtl_params;

// Threadgroup memory.
precise shared float as[20];
precise shared float bs[20];

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

TileLoader_float_4_4_5 TileLoader_float_4_4_5_make_a_as(uint src_, int src_ld_, uint dst_, uint16_t lid)
{
    TileLoader_float_4_4_5 self;
    self.src_ld = src_ld_;
    self.bi = int16_t(int(lid) / 4);
    self.bj = int16_t(mtl_rem(int(lid), 4));
    self.dst = dst_ + uint(int(self.bi) * 5) + uint(int(self.bj));
    self.src = src_ + uint(int(self.bi) * self.src_ld) + uint(int(self.bj));
    return self;
}

TileLoader_float_4_4_5 TileLoader_float_4_4_5_make_b_bs(uint src_, int src_ld_, uint dst_, uint16_t lid)
{
    TileLoader_float_4_4_5 self;
    self.src_ld = src_ld_;
    self.bi = int16_t(int(lid) / 4);
    self.bj = int16_t(mtl_rem(int(lid), 4));
    self.dst = dst_ + uint(int(self.bi) * 5) + uint(int(self.bj));
    self.src = src_ + uint(int(self.bi) * self.src_ld) + uint(int(self.bj));
    return self;
}

TileLoader_float_4_4_5 make_loader_a_as(uint p, int ld, uint tile, uint16_t lid)
{
    return TileLoader_float_4_4_5_make_a_as(p, ld, tile, lid);
}

void TileLoader_float_4_4_5_next_as_a(inout TileLoader_float_4_4_5 self)
{
    self.src += uint(4);
}

void TileLoader_float_4_4_5_next_bs_b(inout TileLoader_float_4_4_5 self)
{
    self.src += uint(4);
}

precise float peek_next_as_a(TileLoader_float_4_4_5 l)
{
    TileLoader_float_4_4_5_next_as_a(l);
    return a[l.src];
}

void TileLoader_float_4_4_5_load_as_a(TileLoader_float_4_4_5 self)
{
    as[self.dst] = a[self.src];
}

void TileLoader_float_4_4_5_load_bs_b(TileLoader_float_4_4_5 self)
{
    bs[self.dst] = b[self.src];
}

void load_both_TileLoader_float_4_4_5_as_a_bs_b(inout TileLoader_float_4_4_5 x, inout TileLoader_float_4_4_5 y)
{
    TileLoader_float_4_4_5_load_as_a(x);
    TileLoader_float_4_4_5_load_bs_b(y);
}

void step_both_TileLoader_float_4_4_5_as_a_bs_b(inout TileLoader_float_4_4_5 x, inout TileLoader_float_4_4_5 y)
{
    TileLoader_float_4_4_5_next_as_a(x);
    TileLoader_float_4_4_5_next_bs_b(y);
}

void main()
{
    int k = mtl_params.k;
    uint16_t lid = uint16_t(gl_LocalInvocationIndex);
    uint g = gl_WorkGroupID.x;
    TileLoader_float_4_4_5 la = TileLoader_float_4_4_5_make_a_as(g * 4u * uint(k), k, 0u, lid);
    TileLoader_float_4_4_5 lb = TileLoader_float_4_4_5_make_b_bs(g * 4u * uint(k), k, 0u, lid);
    TileLoader_float_4_4_5 lc = make_loader_a_as(g * 4u * uint(k), k, 0u, lid);
    TileLoader_float_4_4_5 ld = lb;
    int16_t r = int16_t(int(lid) / 4);
    int16_t col = int16_t(mtl_rem(int(lid), 4));
    peek[g * 16u + uint(lid)] = peek_next_as_a(la);
    float acc = 0.0;
    for (int kk = 0; kk < k; kk += 4)
    {
        if (mtl_rem((kk / 4), 2) == 0)
        {
            load_both_TileLoader_float_4_4_5_as_a_bs_b(la, lb);
        }
        else
        {
            TileLoader_float_4_4_5_load_as_a(lc);
            TileLoader_float_4_4_5_load_bs_b(ld);
        }
        memoryBarrierShared();
        barrier();
        for (int j = 0; j < 4; j++)
        {
            acc += as[int(r) * 5 + j] * bs[int(col) * 5 + j];
        }
        memoryBarrierShared();
        barrier();
        step_both_TileLoader_float_4_4_5_as_a_bs_b(la, lb);
        step_both_TileLoader_float_4_4_5_as_a_bs_b(lc, ld);
    }
    c[g * 16u + uint(int(r) * 4) + uint(col)] = acc;
}
