#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel complex_ops_half
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct cplx_half
{
    float16_t re;
    float16_t im;
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
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_re_out { precise float16_t re_out[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_flags { int flags[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise cplx_half cplx_half_make()
{
    precise cplx_half self;
    self.re = 1.0hf;
    self.im = 0.0hf;
    return self;
}

precise cplx_half cplx_half_make(float16_t r, float16_t i)
{
    precise cplx_half self;
    self.re = r;
    self.im = i;
    return self;
}

precise cplx_half cplx_half_make(int x)
{
    precise cplx_half self;
    self.re = float16_t(x);
    self.im = 0.0hf;
    return self;
}

precise cplx_half operator_add_assign_half(inout cplx_half a, cplx_half b)
{
    a.re += b.re;
    a.im += b.im;
    return a;
}

precise cplx_half operator_mul_half(cplx_half a, cplx_half b)
{
    return cplx_half_make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

precise f16vec2 cplx_half_to_half2(cplx_half self)
{
    return f16vec2(self.re, self.im);
}

precise float16_t cplx_half_to_half(cplx_half self)
{
    return self.re;
}

precise float16_t cast_to_half_cplx_half(cplx_half val)
{
    return cplx_half_to_half(val);
}

bool no_mask_to_bool(no_mask self)
{
    return true;
}

bool positive_to_bool(positive self)
{
    return self.v > 0.0;
}

int cplx_half_to_int(cplx_half self)
{
    return int(self.re);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint gid = gl_GlobalInvocationID.x;
    precise cplx_half acc[3] = cplx_half[3](cplx_half_make(), cplx_half_make(), cplx_half_make());
    precise cplx_half a = cplx_half_make(float16_t(x[gid].x), float16_t(x[gid].y));
    acc[1] = cplx_half_make(2);
    operator_add_assign_half(acc[0], a);
    precise cplx_half b = (operator_add_assign_half(acc[1], a));
    precise cplx_half p = operator_mul_half(acc[0], b);
    precise f16vec2 v = cplx_half_to_half2(p);
    out_[gid] = vec2(v);
    re_out[gid] = cast_to_half_cplx_half(acc[2]) + cplx_half_to_half(b);
    no_mask m;
    precise positive pos = positive(x[gid].x);
    flags[gid] = (no_mask_to_bool(m) ? 1 : 0) + (positive_to_bool(pos) ? 2 : 0) + cplx_half_to_int(acc[1]) * 4;
}
