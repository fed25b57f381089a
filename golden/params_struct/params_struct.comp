#version 450
// Translated by mtl2glsl 0.1.0 from params_struct.metal, kernel params_struct

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Params
{
    float scale;
    float bias;
    vec2 limits;
    uint count;
    int shift;
    vec4 tint;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise vec4 out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) Params p;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

precise float scale_bias_clamp(float x, Params p)
{
    precise float y = x * p.scale + p.bias;
    return clamp(y, p.limits.x, p.limits.y);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    Params p = mtl_params.p;
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.count)
    {
        return;
    }
    int n = int(p.count);
    int src = mtl_rem((int(i) + mtl_rem(p.shift, n) + n), n);
    precise float v = scale_bias_clamp(in_[src], p);
    out_[i] = p.tint * v;
}
