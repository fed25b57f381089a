#version 450
// Translated by mtl2glsl 0.1.0 from torch_kernels.metal, kernel index_add_small_char
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_out_ { int8_t out_[]; };
layout(std430, set = 0, binding = 0) buffer mtl_buffer_out__as_uint { uint out__as_uint[]; }; // 'out' read as atomic<uint>
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src { int8_t src[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_index { int index[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

uint mtl_cas_uint; // atomic_compare_exchange_weak_explicit: the value found

void atomic_add_small_char_out_(uint data, int64_t offset, int8_t value)
{
    uint64_t addr = uint64_t(data * 4u);
    uint64_t misalign = (addr % 4ul) / 1ul;
    data = (data * 4u - uint(misalign * 1ul)) / 4u;
    offset = int64_t(offset + misalign);
    const uint64_t elem_per_enum = 4ul / 1ul;
    uint ptr = data + uint((uint64_t(offset) / elem_per_enum));
    uint old = atomicAdd(out__as_uint[ptr], 0u);
    uint val = uint(0);
    do
    {
        val = old;
        val = uint(bitfieldInsert(uint(val), uint(uint8_t(int8_t(int8_t(uint8_t((val >> ((uint(uint64_t(offset) & (elem_per_enum - 1ul))) % 4u * 8u)))) + int(value)))), int((uint(uint64_t(offset) & (elem_per_enum - 1ul))) % 4u) * 8, 8));
    }
    while (!((mtl_cas_uint = atomicCompSwap(out__as_uint[ptr], old, val)) == old || (old = mtl_cas_uint, false)));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    atomic_add_small_char_out_(0u, int64_t(index[i]), src[i]);
}
