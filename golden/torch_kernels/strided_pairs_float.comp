#version 450
// Translated by mtl2glsl 0.1.0 from torch_kernels.metal, kernel strided_pairs_float

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) uvec2 strides[3];
} mtl_params;

uvec2 offsets_of_float(uvec2 s[2], uvec2 p)
{
    return uvec2(s[0].x * p.x + s[0].y * p.y, s[1].x * p.x + s[1].y * p.y);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uvec2 strides[3] = mtl_params.strides;
    uvec2 pos = gl_GlobalInvocationID.xy;
    uvec2 o = offsets_of_float(uvec2[2](strides[0], strides[1]), pos);
    out_[pos.y * strides[2].x + pos.x * strides[2].y] = in_[o.x] + 2.0 * in_[o.y];
}
