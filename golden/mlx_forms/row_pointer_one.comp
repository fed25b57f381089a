#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel row_pointer_one
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_in_ { precise float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_b { precise uint16_t out_b[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int n;
} mtl_params;

// bfloat: the upper 16 bits of a float, rounded to nearest even; NaN stays a quiet NaN.
float mtl_bf16_to_float(uint16_t b)
{
    return uintBitsToFloat(uint(b) << 16);
}

uint16_t mtl_float_to_bf16(float f)
{
    uint u = floatBitsToUint(f);
    if (isnan(f))
        return uint16_t((u >> 16) | 0x40u);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

void rows_sum_1_in_(inout float totals[1], inout uint inputs[1], int n)
{
    for (int j = 0; j < 1; j++)
    {
        totals[j] = 0.0;
        for (int i = 0; i < n; i++)
        {
            totals[j] += in_[inputs[j] + uint(i)];
        }
        inputs[j] += uint(n);
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int n = mtl_params.n;
    uint gid = gl_GlobalInvocationID.x;
    uint row[1] = uint[1](gid * uint(n));
    precise float total[1] = float[1](-1e+02);
    rows_sum_1_in_(total, row, n);
    out_[gid] = total[0] + in_[row[0]];
    precise uint16_t zero = uint16_t(0x0000u /* 0 */);
    out_b[gid] = mtl_float_to_bf16(mtl_bf16_to_float(zero) + mtl_bf16_to_float(mtl_float_to_bf16(total[0])));
}
