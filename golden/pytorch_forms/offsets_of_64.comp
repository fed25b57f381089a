#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel offsets_of_64
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_scalar_block_layout : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(scalar, set = 0, binding = 0) readonly buffer mtl_buffer_strides { uvec3 strides[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_offsets { u64vec3 offsets[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_shape { uint shape[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint ndim;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint ndim = mtl_params.ndim;
    uint i = gl_GlobalInvocationID.x;
    offsets[i] = u64vec3(0ul);
    uint idx = i;
    for (uint d = 0u; d < ndim; d++)
    {
        const uint rem = idx % shape[d];
        idx /= shape[d];
        offsets[i] += uint64_t(rem) * u64vec3(strides[d]);
    }
}
