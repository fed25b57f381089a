#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel sgd_momentum_step_float

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct SgdMomentumArgs_float
{
    float lr;
    float momentum;
};

layout(std430, set = 0, binding = 1) buffer mtl_buffer_param { precise float param[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_grad { float grad[]; };
layout(std430, set = 0, binding = 3) buffer mtl_buffer_velocity { precise float velocity[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) SgdMomentumArgs_float args;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    SgdMomentumArgs_float args = mtl_params.args;
    uint i = gl_GlobalInvocationID.x;
    velocity[i] = args.momentum * velocity[i] + grad[i];
    param[i] -= args.lr * velocity[i];
}
