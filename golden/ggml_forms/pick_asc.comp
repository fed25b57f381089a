#version 450
// Translated by mtl2glsl 0.1.0 from ggml_forms.metal, kernel pick_asc
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src { int8_t src[]; };
layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src_as_float { float src_as_float[]; }; // 'src' read as float
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_dst { precise float dst[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint n;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint n = mtl_params.n;
    uint i = gl_GlobalInvocationID.x;
    uint row = (uint(uint64_t(i * 4u) * 4ul)) / 4u;
    precise float acc[4] = float[4](0.25, 0.25, 0.25, 0.25);
    precise float lo;
    precise float hi;
    (lo = min(src_as_float[row], src_as_float[row + 1u]), hi = max(src_as_float[row + 2u], src_as_float[row + 3u]));
    for (int k = 0; k < 4; ++k)
    {
        acc[k] *= src_as_float[row + uint(k)];
    }
    precise float best = 0 == 0 ? lo : hi;
    dst[i] = best + acc[0] + acc[1] + acc[2] + acc[3] + float(8ul + 4ul);
}
