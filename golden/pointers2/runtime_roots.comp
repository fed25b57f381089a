#version 450
// Translated by mtl2glsl 0.1.0 from pointers2.metal, kernel runtime_roots
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_w { float w[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_float { float v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint split;
    layout(offset = 24) mtl_ref_float x_addr;
    layout(offset = 32) mtl_ref_float w_addr;
} mtl_params;

precise float sum4_addr(mtl_ref_float p_ref, uint p)
{
    return p_ref.v[p] + p_ref.v[p + 1u] + p_ref.v[p + 2u] + p_ref.v[p + 3u];
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint split = mtl_params.split;
    uint i = gl_GlobalInvocationID.x;
    mtl_ref_float p_ref = mtl_params.x_addr;
    uint p = 0u;
    if (i >= split)
    {
        p_ref = mtl_params.w_addr;
        p = 1u;
    }
    mtl_ref_float q_ref = ((i & 1u) != 0u ? mtl_params.x_addr : mtl_params.w_addr);
    uint q = 0u;
    float acc = 0.0;
    for (uint k = 0u; k < 3u; k++)
    {
        mtl_ref_float src_ref = ((k & 1u) == 0u ? mtl_params.x_addr : mtl_params.w_addr);
        uint src = 0u;
        acc += sum4_addr(src_ref, src + i + k);
    }
    y[i] = p_ref.v[p + i] + 2.0 * q_ref.v[q + i] + acc;
}
