#version 450
// Translated by mtl2glsl 0.1.0 from steel_forms.metal, kernel masked_copy_bool
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_mask { uint8_t mask[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    const bool has_mask = !false;
    {
        bool m = bool(mask[i]);
        if (!m)
        {
            y[i] = 0.0;
            return;
        }
    }
    y[i] = x[i];
}
