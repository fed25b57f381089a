#version 450
// Translated by mtl2glsl 0.1.0 from mlx_more_forms.metal, kernel ctor_lists

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct cplx
{
    float imag;
    float real;
};

struct cplx_pair
{
    cplx first;
    cplx second;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_v { float v[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise vec2 out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise cplx cplx_make(float re, float im)
{
    precise cplx self;
    self.imag = im;
    self.real = re;
    return self;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise cplx listed[2] = cplx[2](cplx_make(v[i], 2.0), cplx_make(3.0, v[i] + 1.0));
    precise cplx_pair p = cplx_pair(cplx_make(v[i] * 2.0, -1.0), cplx_make(4.0, v[i]));
    out_[4u * i + 0u] = vec2(listed[0].real, listed[0].imag);
    out_[4u * i + 1u] = vec2(listed[1].real, listed[1].imag);
    out_[4u * i + 2u] = vec2(p.first.real, p.first.imag);
    out_[4u * i + 3u] = vec2(p.second.real, p.second.imag);
}
