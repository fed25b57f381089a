#version 450
// Translated by mtl2glsl 0.1.0 from function_constants.metal, kernel fc_locals
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_src { int src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_dst { int dst[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

layout(constant_id = 100) const int FC_tile = 0; // [[function_constant(40)]]
int mtl_fc_value(int v) { return v; } // a value, not a constant: converting it needs no Kernel capability
layout(constant_id = 102) const int mtl_fc_FC_lanes = 0; // [[function_constant(41)]] short FC_lanes
int16_t FC_lanes = int16_t(mtl_fc_value(mtl_fc_FC_lanes));
const bool FC_tile_big = FC_tile * 2 > 64;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    const int C = FC_tile;
    const int16_t lanes = FC_lanes;
    const int16_t NW = int16_t(32);
    const int twice = 2 * C;
    int res = src[i];
    if ((C > int(NW) || int(lanes) > 1) && res >= 0)
    {
        res += 1000;
    }
    if (int(lanes) >= 16)
    {
        res += 100;
    }
    if (twice >= 8)
    {
        res += 10;
    }
    if (FC_tile_big)
    {
        res += 1;
    }
    dst[i] = res;
}
