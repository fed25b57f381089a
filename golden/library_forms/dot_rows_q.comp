#version 450
// Translated by mtl2glsl 0.1.0 from library_forms.metal, kernel dot_rows_q
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct block_q
{
    float16_t d;
    uint8_t qs[16];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { block_q x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_v { vec4 v[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void dequantize_q_float4_x(uint xb, int16_t il, inout vec4 reg)
{
    precise const float d = float(x[xb].d);
    reg = vec4(d * (float(x[xb].qs[4 * int(il) + 0]) - 8.0), d * (float(x[xb].qs[4 * int(il) + 1]) - 8.0), d * (float(x[xb].qs[4 * int(il) + 2]) - 8.0), d * (float(x[xb].qs[4 * int(il) + 3]) - 8.0));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint row = gl_GlobalInvocationID.x;
    float sum = 0.0;
    for (int16_t b = int16_t(0); int(b) < 4; b++)
    {
        precise vec4 r;
        dequantize_q_float4_x(row, b, r);
        sum += dot(r, v[int(b)]);
    }
    out_[row] = sum;
}
