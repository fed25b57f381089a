#version 450
// Translated by mtl2glsl 0.1.0 from function_constants.metal, kernel bin_op
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_dst { precise float dst[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uint cols;
} mtl_params;

layout(constant_id = 104) const bool FC_bin_rb = false; // [[function_constant(1302)]]
int mtl_fc_value(int v) { return v; } // a value, not a constant: converting it needs no Kernel capability
layout(constant_id = 102) const int mtl_fc_FC_bin_f = 0; // [[function_constant(1301)]] short FC_bin_f
int16_t FC_bin_f = int16_t(mtl_fc_value(mtl_fc_FC_bin_f));
layout(constant_id = 100) const int mtl_fc_FC_bin_op = 0; // [[function_constant(1300)]] short FC_bin_op
int16_t FC_bin_op = int16_t(mtl_fc_value(mtl_fc_FC_bin_op));

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint cols = mtl_params.cols;
    uint i = gl_GlobalInvocationID.x;
    precise float x = a[i];
    precise float y = FC_bin_rb ? b[i % cols] : b[i];
    precise float r = x;
    for (int16_t k = int16_t(0); int(k) < int(FC_bin_f); ++k)
    {
        if (int(FC_bin_op) == 0)
        {
            r += y;
        }
        else if (int(FC_bin_op) == 1)
        {
            r -= y;
        }
        else
        {
            r *= y;
        }
    }
    dst[i] = r;
}
