#version 450
// Translated by mtl2glsl 0.1.0 from conversions.metal, kernel from_int
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_iv { int iv[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_u { uint u[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_l { int64_t l[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_fi { precise float fi[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_fu { precise float fu[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_fl { precise float fl[]; };
layout(std430, set = 0, binding = 6) writeonly buffer mtl_buffer_hi { precise float16_t hi[]; };
layout(std430, set = 0, binding = 7) writeonly buffer mtl_buffer_c { int8_t c[]; };
layout(std430, set = 0, binding = 8) writeonly buffer mtl_buffer_us { uint16_t us[]; };
layout(std430, set = 0, binding = 9) writeonly buffer mtl_buffer_li { int li[]; };
layout(std430, set = 0, binding = 10) writeonly buffer mtl_buffer_uc { uint8_t uc[]; };
layout(std430, set = 0, binding = 11) writeonly buffer mtl_buffer_wide { int64_t wide[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    int a = iv[i];
    fi[i] = float(a);
    fu[i] = float(u[i]);
    fl[i] = float(l[i]);
    hi[i] = float16_t(mtl_rem(a, 65504));
    c[i] = int8_t(a);
    us[i] = uint16_t(a);
    li[i] = int(l[i]);
    uc[i] = uint8_t(u[i]);
    wide[i] = int64_t(a) * int64_t(u[i] >> 8) + int64_t(int8_t(a));
}
