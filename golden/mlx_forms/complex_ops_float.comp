#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel complex_ops_float
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct cplx_float
{
    float re;
    float im;
};

struct no_mask
{
    int8_t x;
};

struct positive
{
    float v;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { vec2 x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise vec2 out_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_re_out { precise float re_out[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_flags { int flags[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise cplx_float cplx_float_make()
{
    precise cplx_float self;
    self.re = 1.0;
    self.im = 0.0;
    return self;
}

precise cplx_float cplx_float_make(float r, float i)
{
    precise cplx_float self;
    self.re = r;
    self.im = i;
    return self;
}

precise cplx_float cplx_float_make(int x)
{
    precise cplx_float self;
    self.re = float(x);
    self.im = 0.0;
    return self;
}

precise cplx_float operator_add_assign_float(inout cplx_float a, cplx_float b)
{
    a.re += b.re;
    a.im += b.im;
    return a;
}

precise cplx_float operator_mul_float(cplx_float a, cplx_float b)
{
    return cplx_float_make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

precise vec2 cplx_float_to_float2(cplx_float self)
{
    return vec2(self.re, self.im);
}

precise float cplx_float_to_float(cplx_float self)
{
    return self.re;
}

precise float cast_to_float_cplx_float(cplx_float val)
{
    return cplx_float_to_float(val);
}

bool no_mask_to_bool(no_mask self)
{
    return true;
}

bool positive_to_bool(positive self)
{
    return self.v > 0.0;
}

int cplx_float_to_int(cplx_float self)
{
    return int(self.re);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint gid = gl_GlobalInvocationID.x;
    precise cplx_float acc[3] = cplx_float[3](cplx_float_make(), cplx_float_make(), cplx_float_make());
    precise cplx_float a = cplx_float_make(x[gid].x, x[gid].y);
    acc[1] = cplx_float_make(2);
    operator_add_assign_float(acc[0], a);
    precise cplx_float b = (operator_add_assign_float(acc[1], a));
    precise cplx_float p = operator_mul_float(acc[0], b);
    precise vec2 v = cplx_float_to_float2(p);
    out_[gid] = vec2(v);
    re_out[gid] = cast_to_float_cplx_float(acc[2]) + cplx_float_to_float(b);
    no_mask m;
    precise positive pos = positive(x[gid].x);
    flags[gid] = (no_mask_to_bool(m) ? 1 : 0) + (positive_to_bool(pos) ? 2 : 0) + cplx_float_to_int(acc[1]) * 4;
}
