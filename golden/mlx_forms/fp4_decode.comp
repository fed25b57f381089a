#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel fp4_decode
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct fp4_e2m1
{
    uint8_t bits;
};

struct half_box
{
    float16_t h;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_q { uint8_t q[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_hb { uint16_t hb[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float fp4_e2m1_to_float(fp4_e2m1 self)
{
    precise float16_t converted = uint16BitsToFloat16(uint16_t((int(self.bits) & 7) << 9));
    converted = float16_t(converted * 16384.0);
    return float(bool(int(self.bits) & 8) ? -converted : converted);
}

precise float dequantize_float_operator_call(uint8_t x)
{
    return fp4_e2m1_to_float(fp4_e2m1(x));
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint gid = gl_GlobalInvocationID.x;
    uint16_t u = hb[gid];
    out_[gid * 2u] = dequantize_float_operator_call(q[gid]);
    out_[gid * 2u + 1u] = float((half_box(uint16BitsToFloat16(u))).h);
}
