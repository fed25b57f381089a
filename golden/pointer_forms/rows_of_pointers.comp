#version 450
// Translated by mtl2glsl 0.1.0 from pointer_forms.metal, kernel rows_of_pointers
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src1 { int8_t src1[]; };
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src1_as_float { float src1_as_float[]; }; // 'src1' read as float
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_offs { uint64_t offs[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_dst { precise float dst[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
layout(constant_id = 16) const uint mtl_threadgroup_length_0 = 1u; // [[threadgroup(0)]]: elements, set by the runtime
shared float shmem[(mtl_threadgroup_length_0 * 1u + 3u) / 4u]; // char* shmem, read as float

void main()
{
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationID.x;
    uint src1_ptr[4];
    for (int j = 0; j < 4; ++j)
    {
        src1_ptr[j] = (uint(offs[j])) / 4u;
    }
    uint part[2];
    for (int r = 0; r < 2; ++r)
    {
        part[r] = uint(32 * r);
    }
    float res = 0.0;
    for (int j = 0; j < 4; ++j)
    {
        res += float(j + 1) * src1_as_float[src1_ptr[j] + i];
    }
    shmem[part[0] + lid] = res;
    shmem[part[1] + lid] = -2.0 * res;
    memoryBarrierShared();
    barrier();
    dst[i] = shmem[part[0] + (31u - lid)] + shmem[part[1] + lid];
}
