#version 450
// Translated by mtl2glsl 0.1.0 from mlx_quant_forms.metal, kernel batched_scale

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_w { uint w[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_y { precise float y[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int stride;
    layout(offset = 20) int batched;
} mtl_params;

void adjust_offsets_float_x_w_y(inout uint x_p, inout uint w_p, inout uint y_p, int stride, uvec3 tid)
{
    x_p += tid.y * uint(stride);
    w_p += tid.y;
    y_p += tid.y * uint(stride);
}

void step_by_float_x(inout uint p, int k)
{
    p += uint(k);
}

void skip_two_float_x(inout uint p)
{
    step_by_float_x(p, 1);
    step_by_float_x(p, 1);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int stride = mtl_params.stride;
    int batched = mtl_params.batched;
    uvec3 tid = gl_GlobalInvocationID;
    uint x_p = 0u;
    uint w_p = 0u;
    uint y_p = 0u;
    if (bool(batched))
    {
        adjust_offsets_float_x_w_y(x_p, w_p, y_p, stride, tid);
    }
    uint xp = x_p;
    step_by_float_x(xp, int(tid.x));
    uint x2 = x_p + tid.x;
    skip_two_float_x(x2);
    precise float next = tid.x + 2u < uint(stride) ? x[x2] : 0.0;
    y[y_p + tid.x] = x[xp] * float(w[w_p]) + next;
}
