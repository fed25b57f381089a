#version 450
// Translated by mtl2glsl 0.1.0 from ggml_forms.metal, kernel chunk_walk
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_out_ { int16_t out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int step;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int step = mtl_params.step;
    uint i = gl_GlobalInvocationID.x;
    const int16_t chpb = int16_t(5);
    int16_t cch = int16_t(i % 7u);
    for (int k = 0; k < 4; ++k)
    {
        cch = int16_t(cch + step);
        cch = int16_t(mtl_rem(int(cch), int(chpb)));
    }
    out_[i] = cch;
}
