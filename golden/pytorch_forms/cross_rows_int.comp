#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel cross_rows_int

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { int a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_b { int b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { int out_[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_first { int first[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

ivec3 cross_(ivec3 x, ivec3 y)
{
    return ivec3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    const ivec3 x = ivec3(a[3u * i], a[3u * i + 1u], a[3u * i + 2u]);
    const ivec3 y = ivec3(b[3u * i], b[3u * i + 1u], b[3u * i + 2u]);
    const ivec3 r = cross_(x, y);
    out_[3u * i] = r.x;
    out_[3u * i + 1u] = r.y;
    out_[3u * i + 2u] = r.z;
    first[i] = x.y * y.z - x.z * y.y;
}
