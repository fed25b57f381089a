#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel gather_strided
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct GatherParams
{
    int ndim;
    int mode;
    int64_t sizes[4];
    int64_t strides[4];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) GatherParams params;
} mtl_params;

int64_t offset_of(int64_t idx, GatherParams p)
{
    const int64_t sizes[4] = p.sizes;
    const int64_t strides[4] = p.strides;
    const int ndim = p.ndim;
    int64_t off = 0l;
    for (int d = 0; d < ndim; d++)
    {
        off += (int64_t(idx - sizes[d] * (idx / sizes[d]))) * strides[d];
        idx /= sizes[d];
    }
    return off;
}

void gather_impl_0_in__out_(uint in_p, uint out_p, GatherParams p, uint tid)
{
    const int64_t strides[4] = p.strides;
    precise float v = in_[in_p + uint(offset_of(int64_t(tid), p))];
    out_[out_p + tid] = 0 == 0 ? v : v * float(strides[0]);
}

void gather_impl_1_in__out_(uint in_p, uint out_p, GatherParams p, uint tid)
{
    const int64_t strides[4] = p.strides;
    precise float v = in_[in_p + uint(offset_of(int64_t(tid), p))];
    out_[out_p + tid] = 1 == 0 ? v : v * float(strides[0]);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    GatherParams params = mtl_params.params;
    uint tid = gl_GlobalInvocationID.x;
    switch (params.mode)
    {
    case 0:
        gather_impl_0_in__out_(0u, 0u, params, tid);
        return;
    default:
        gather_impl_1_in__out_(0u, 0u, params, tid);
        return;
    }
}
