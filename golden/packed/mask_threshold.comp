#version 450
// Translated by mtl2glsl 0.1.0 from packed.metal, kernel mask_threshold
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Threshold
{
    float t;
    uint8_t below;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_keep { uint8_t keep[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_mask { uint8_t mask[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) Threshold th;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    Threshold th = mtl_params.th;
    uint i = gl_GlobalInvocationID.x;
    bool m = bool(keep[i]) && int((x[i] > th.t)) != int(bool(th.below));
    mask[i] = uint8_t(m);
    y[i] = m ? x[i] : 0.0;
}
