#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel padded_reverse_idx

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// Partial threadgroups at the grid's edge run as smaller workgroups, so that only existing threads run,
// as in Metal; the threadgroup size asked for is in specialization constants 3, 4, 5.
layout(constant_id = 3) const uint mtl_threadgroup_full_x = 1u;
layout(constant_id = 4) const uint mtl_threadgroup_full_y = 1u;
layout(constant_id = 5) const uint mtl_threadgroup_full_z = 1u;
const uvec3 mtl_threads_per_threadgroup_full = uvec3(mtl_threadgroup_full_x, mtl_threadgroup_full_y, mtl_threadgroup_full_z);
const uint mtl_threadgroup_full_total = mtl_threadgroup_full_x * mtl_threadgroup_full_y * mtl_threadgroup_full_z;
const uint mtl_threadgroup_total = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;

struct cplx_float
{
    float re;
    float im;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { cplx_float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise cplx_float out_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_idx_out { uint idx_out[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int n;
} mtl_params;

// Threadgroup memory.
precise shared cplx_float vals[64];
shared uint idxs[64];

// A struct read from memory as a plain value (for ?:, whose operands must have one type in SPIR-V).
cplx_float mtl_value_cplx_float(cplx_float v)
{
    return v;
}

cplx_float PadValue_float_v; // constant in Metal: set first in main() (its initializer calls a function)

precise cplx_float cplx_float_make(float r, float i)
{
    precise cplx_float self;
    self.re = r;
    self.im = i;
    return self;
}

void fill_block_float_1_vals_idxs_in_(uint vals_p, uint idxs_p, uint in_p, int n, uint lid)
{
    vals[vals_p + lid] = int(lid) < n ? mtl_value_cplx_float(in_[in_p + lid]) : PadValue_float_v;
    {
        idxs[idxs_p + lid] = lid * 10u;
    }
}

void main()
{
    int n = mtl_params.n;
    uint lid = gl_LocalInvocationID.x;
    PadValue_float_v = cplx_float_make(-1.5, 2.25);
    {
        fill_block_float_1_vals_idxs_in_(0u, 0u, 0u, n, lid);
        memoryBarrierShared();
        barrier();
        out_[lid] = vals[63u - lid];
        idx_out[lid] = idxs[63u - lid];
    }
}
