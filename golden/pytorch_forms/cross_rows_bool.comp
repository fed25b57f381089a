#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel cross_rows_bool
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { uint8_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { uint8_t b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { uint8_t out_[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_first { int first[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

bvec3 cross_(bvec3 x, bvec3 y)
{
    bvec3 r;
    r.x = bool(int(x.y) * int(y.z) - int(x.z) * int(y.y));
    r.y = bool(int(x.z) * int(y.x) - int(x.x) * int(y.z));
    r.z = bool(int(x.x) * int(y.y) - int(x.y) * int(y.x));
    return r;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    const bvec3 x = bvec3(bool(a[3u * i]), bool(a[3u * i + 1u]), bool(a[3u * i + 2u]));
    const bvec3 y = bvec3(bool(b[3u * i]), bool(b[3u * i + 1u]), bool(b[3u * i + 2u]));
    const bvec3 r = cross_(x, y);
    out_[3u * i] = uint8_t(r.x);
    out_[3u * i + 1u] = uint8_t(r.y);
    out_[3u * i + 2u] = uint8_t(r.z);
    first[i] = int(x.y) * int(y.z) - int(x.z) * int(y.y);
}
