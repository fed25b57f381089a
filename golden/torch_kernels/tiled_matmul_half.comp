#version 450
// Translated by mtl2glsl 0.1.0 from torch_kernels.metal, kernel tiled_matmul_half
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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { float16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { float16_t b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_c { precise float16_t c[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uvec3 sizes;
} mtl_params;

// Threadgroup memory.
precise shared float16_t A_tile[4][4];
precise shared float16_t B_tile[4][4];

const uint TILE_DIM = 4u;

precise float matmul_inner_half_a_b_A_tile_B_tile(uint a_p, uint b_p, uvec3 sizes, uint A_tile_p, uint B_tile_p, uvec2 tid, uvec2 pos)
{
    precise float sum = 0.0;
    uint tiles = (sizes.y + TILE_DIM - 1u) / TILE_DIM;
    for (uint t = 0u; t < tiles; t++)
    {
        uint col = t * TILE_DIM + tid.x;
        uint row = t * TILE_DIM + tid.y;
        A_tile[A_tile_p + tid.y][tid.x] = pos.y < sizes.x && col < sizes.y ? a[a_p + (pos.y * sizes.y + col)] : 0.0hf;
        B_tile[B_tile_p + tid.y][tid.x] = row < sizes.y && pos.x < sizes.z ? b[b_p + (row * sizes.z + pos.x)] : 0.0hf;
        memoryBarrierShared();
        barrier();
        uint brows = B_tile_p + 1u;
        for (uint k = 0u; k < TILE_DIM; k++)
        {
            sum += float(A_tile[A_tile_p + tid.y][k]) * float(bool(k) ? B_tile[brows + (k - 1u)][tid.x] : B_tile[B_tile_p][tid.x]);
        }
        memoryBarrierShared();
        barrier();
    }
    return sum;
}

void main()
{
    uvec3 sizes = mtl_params.sizes;
    uvec2 tid = gl_LocalInvocationID.xy;
    uvec2 pos = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).xy;
    precise float sum = matmul_inner_half_a_b_A_tile_B_tile(0u, 0u, sizes, 0u, 0u, tid, pos);
    if (pos.y < sizes.x && pos.x < sizes.z)
    {
        c[pos.y * sizes.z + pos.x] = float16_t(sum);
    }
}
