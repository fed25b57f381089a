#version 450
// Translated by mtl2glsl 0.1.0 from pointer_forms.metal, kernel moved_parameter
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_float { float v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) mtl_ref_float b_addr;
    layout(offset = 24) mtl_ref_float a_addr;
} mtl_params;

precise float moved_param_a_b(mtl_ref_float p_ref, uint p, uint other, uint i)
{
    if (i % 2u == 1u)
    {
        p_ref = mtl_params.b_addr;
        p = other;
    }
    return p_ref.v[p + i];
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    y[i] = moved_param_a_b(mtl_params.a_addr, 0u, 0u, i);
}
