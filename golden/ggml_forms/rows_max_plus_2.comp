#version 450
// Translated by mtl2glsl 0.1.0 from ggml_forms.metal, kernel rows_max_plus_2
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
layout(std430, set = 0, binding = 1) buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint n;
} mtl_params;

// Threadgroup memory.
layout(constant_id = 16) const uint mtl_threadgroup_length_0 = 1u; // [[threadgroup(0)]]: elements, set by the runtime
shared float shmem[mtl_threadgroup_length_0];

void row_max_plus_2_x_y_shmem(uint x_p, uint y_p, uint row, uint n, uint shmem_p, uint16_t lane)
{
    shmem[shmem_p + uint(lane)] = x[x_p + row * n];
    for (uint k = 1u; k < n; ++k)
    {
        shmem[shmem_p + uint(lane)] = max(shmem[shmem_p + uint(lane)], x[x_p + (row * n + k)]);
    }
    y[y_p + row] = shmem[shmem_p + uint(lane)] + 2.0;
}

void row_fn_row_max_plus_x_y_shmem(uint x_p, uint y_p, uint row, uint n, uint shmem_p, uint16_t lane)
{
    row_max_plus_2_x_y_shmem(x_p, y_p, row, n, shmem_p, lane);
}

void main()
{
    uint n = mtl_params.n;
    uint row = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint16_t lane = uint16_t(gl_LocalInvocationIndex);
    row_fn_row_max_plus_x_y_shmem(0u, 0u, row, n, 0u, lane);
}
