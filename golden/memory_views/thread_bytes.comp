#version 450
// Translated by mtl2glsl 0.1.0 from memory_views.metal, kernel thread_bytes
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

const uint grid_tab[4] = uint[4](67305985u, 134678021u, 202050057u, 269422093u);

void sincos_out_c_s(float t, uint c_p, uint s_p, inout float c, inout float s)
{
    c = cos(t);
    s = sin(t);
    if (t < 0.0)
    {
        s *= -1.0;
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uint aux32 = x[i];
    uint q8 = 0u;
    uint16_t sc16[2];
    sc16[0] = uint16_t(x[i] & 65535u);
    sc16[1] = uint16_t(x[i] >> 16);
    uint sc8 = 0u;
    uint scales32 = 0u;
    uint scales16 = 0u;
    scales32 = uint(bitfieldInsert(uint(scales32), uint(uint16_t(i)), int(((scales16 + 1u) * 2u) % 4u) * 8, 16));
    scales32 = uint(bitfieldInsert(uint(scales32), uint(uint16_t(7)), int(((scales16 + 0u) * 2u) % 4u) * 8, 16));
    uint sc = 0u;
    uint g = ((i % 4u)) * 4u;
    precise float c;
    precise float s;
    sincos_out_c_s((float(i) - 8.0) * 0.1, 0u, 0u, c, s);
    y[i] = float(int(uint8_t((aux32 >> ((q8 + 0u) % 4u * 8u)))) + 2 * int(uint8_t((aux32 >> ((q8 + 3u) % 4u * 8u)))) + int(uint8_t((uint(sc16[(sc8 + 1u) / 2u]) >> ((sc8 + 1u) % 2u * 8u)))) + int(uint8_t((uint(sc16[(sc8 + 2u) / 2u]) >> ((sc8 + 2u) % 2u * 8u)))) * 3 + int(int8_t(uint8_t((scales32 >> ((sc + 0u) % 4u * 8u))))) + int(int8_t(uint8_t((scales32 >> ((sc + 2u) % 4u * 8u))))) + int(uint8_t((grid_tab[(g + 1u) / 4u] >> ((g + 1u) % 4u * 8u))))) + c + s;
}
