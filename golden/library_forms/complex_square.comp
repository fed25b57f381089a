#version 450
// Translated by mtl2glsl 0.1.0 from library_forms.metal, kernel complex_square

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct cplx
{
    float re;
    float im;
};

layout(std430, set = 0, binding = 0) buffer mtl_buffer_z { precise vec2 z[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise cplx cplx_make(float r, float i)
{
    precise cplx self;
    self.re = r;
    self.im = i;
    return self;
}

precise cplx cmul(cplx a, cplx b)
{
    return cplx_make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise cplx c = cmul(cplx_make(z[i].x, z[i].y), cplx_make(z[i].x, z[i].y));
    z[i] = vec2(c.re, c.im);
}
