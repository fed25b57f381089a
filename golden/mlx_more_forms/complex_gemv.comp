#version 450
// Translated by mtl2glsl 0.1.0 from mlx_more_forms.metal, kernel complex_gemv

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_a { vec2 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_x { vec2 x[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise vec2 y[]; };
layout(std430, set = 0, binding = 3) buffer mtl_buffer_extra { precise vec2 extra[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int k_size;
} mtl_params;

precise cplx cplx_make(int x)
{
    precise cplx self;
    self.imag = 0.0;
    self.real = float(x);
    return self;
}

precise cplx cplx_make()
{
    precise cplx self;
    self.imag = -0.5;
    self.real = 0.25;
    return self;
}

precise cplx cplx_make(float re, float im)
{
    precise cplx self;
    self.imag = im;
    self.real = re;
    return self;
}

precise cplx operator_add_assign(inout cplx a, cplx b)
{
    a.real += b.real;
    a.imag += b.imag;
    return a;
}

precise cplx operator_mul(cplx a, cplx b)
{
    return cplx_make(a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int k_size = mtl_params.k_size;
    uint gid = gl_GlobalInvocationID.x;
    const int TM = 4;
    precise cplx result[4] = cplx[4](cplx_make(0), cplx_make(), cplx_make(), cplx_make());
    for (int k = 0; k < k_size; k++)
    {
        precise cplx xv = cplx_make(x[k].x, x[k].y);
        for (int r = 0; r < TM; r++)
        {
            precise vec2 av = a[(gid * uint(TM) + uint(r)) * uint(k_size) + uint(k)];
            operator_add_assign(result[r], operator_mul(cplx_make(av.x, av.y), xv));
        }
    }
    for (int r = 0; r < TM; r++)
    {
        y[gid * uint(TM) + uint(r)] = vec2(result[r].real, result[r].imag);
    }
    precise cplx two[3] = cplx[3](cplx_make(2), cplx_make(), cplx_make());
    precise cplx listed[2] = cplx[2](cplx_make(1.0, 2.0), cplx_make(3.0, 4.0));
    precise cplx none[2] = cplx[2](cplx_make(), cplx_make());
    precise cplx_pair p = cplx_pair(cplx_make(5.0, 6.0), cplx_make(7));
    uint e = gid * 9u;
    extra[e] = vec2(two[0].real, two[0].imag);
    extra[e + 1u] = vec2(two[2].real, two[2].imag);
    extra[e + 2u] = vec2(listed[0].real, listed[0].imag);
    extra[e + 3u] = vec2(listed[1].real, listed[1].imag);
    extra[e + 4u] = vec2(none[1].real, none[1].imag);
    extra[e + 5u] = vec2(p.first.real, p.first.imag);
    extra[e + 6u] = vec2(p.second.real, p.second.imag);
    extra[e + 7u] = vec2(result[0].real - result[1].real, float(k_size));
    extra[e + 8u] = vec2(float(gid), 0.0);
}
