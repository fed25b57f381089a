#version 450
// Translated by mtl2glsl 0.1.0 from steel_forms.metal, kernel gather_rows
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

struct gather_RowsLoader_float_4_8
{
    uint dst;
    uint src[4];
    int valid[4];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_rows { int rows[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int n;
} mtl_params;

// Threadgroup memory.
precise shared float tile[32];

gather_RowsLoader_float_4_8 gather_RowsLoader_float_4_8_make_x_rows_tile(uint x_p, uint rows_p, int n, uint dst_, uint16_t c)
{
    gather_RowsLoader_float_4_8 self;
    self.dst = dst_ + uint(int(c));
    for (int i = 0; i < 4; i++)
    {
        self.valid[i] = int(rows[rows_p + uint(i)] < n);
        self.src[i] = x_p + uint(rows[rows_p + uint(i)] * 8) + uint(int(c));
    }
    return self;
}

void gather_RowsLoader_float_4_8_load_tile_x(gather_RowsLoader_float_4_8 self)
{
    for (int i = 0; i < 4; i++)
    {
        uint row = self.src[i] + 0u;
        tile[self.dst + uint(i * 8)] = bool(self.valid[i]) ? x[row] : 0.0;
    }
}

void main()
{
    int n = mtl_params.n;
    uint16_t c = uint16_t(gl_LocalInvocationIndex);
    uint g = gl_WorkGroupID.x;
    gather_RowsLoader_float_4_8 loader = gather_RowsLoader_float_4_8_make_x_rows_tile(0u, g * 4u, n, 0u, c);
    gather_RowsLoader_float_4_8_load_tile_x(loader);
    memoryBarrierShared();
    barrier();
    for (int i = 0; i < 4; i++)
    {
        y[g * 32u + uint(i * 8) + uint(c)] = tile[(3 - i) * 8 + int(c)];
    }
}
