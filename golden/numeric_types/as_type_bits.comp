#version 450
// Translated by mtl2glsl 0.1.0 from numeric_types.metal, kernel as_type_bits
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_u { uint64_t u[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_halves { uvec2 halves[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_floats { precise vec2 floats[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_back { int64_t back[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_h2 { precise f16vec2 h2[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_bytes { u8vec4 bytes[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uint64_t v = u[i];
    halves[i] = unpack32(v);
    precise vec2 f = uintBitsToFloat(unpack32(v));
    floats[i] = f;
    back[i] = int64_t(pack64(uvec2(floatBitsToInt(f)))) + 1l;
    uint lo = unpack32(v).x;
    h2[i] = unpackFloat2x16(lo);
    bytes[i] = unpack8(floatBitsToUint(uintBitsToFloat(lo)));
}
