#version 450
// Translated by mtl2glsl 0.1.0 from cxx_features.metal, kernel features_int

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct lib_Accum_int_4
{
    int total;
    int count;
};

struct lib_Cursor_int
{
    int dim;
    int offset;
    int index;
    int step;
};

struct Complex
{
    float re;
    float im;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { int x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_mag { uint mag[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_cplx { precise vec2 cplx[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

precise const float weights[4] = float[4](0.5, 0.25, 0.125, 0.125);

lib_Accum_int_4 lib_Accum_int_4_make()
{
    lib_Accum_int_4 self;
    self.total = 0;
    self.count = 0;
    return self;
}

void lib_Accum_int_4_add(inout lib_Accum_int_4 self, int v)
{
    self.total += v;
    self.count++;
}

int lib_detail_dot_table_int_4(int v[4])
{
    int s = 0;
    for (int i = 0; i < 4; i++)
    {
        s += v[i] * int(weights[mtl_rem(i, 4)]);
    }
    return s;
}

int lib_Accum_int_4_mean(lib_Accum_int_4 self)
{
    return self.total / self.count;
}

int lib_scaled(int x, int k)
{
    return x * k;
}

int lib_Cursor_int_location(lib_Cursor_int self)
{
    return self.offset + self.dim + self.index + self.step;
}

lib_Cursor_int lib_Cursor_int_make(int d)
{
    lib_Cursor_int self;
    self.dim = d;
    self.offset = 3;
    self.index = 2;
    self.step = self.index + 4;
    return self;
}

precise float lambda_100_18(float t, inout int calls, inout float bias)
{
    calls++;
    return t + bias;
}

precise float lambda_104_23(float t, float bias)
{
    return t * 2.0 + bias;
}

uint lib_magnitude_int(int x)
{
    return uint(x < 0 ? -x : x);
}

precise Complex lib_operator_add(Complex a, Complex b)
{
    return Complex(a.re + b.re, a.im + b.im);
}

precise Complex lib_operator_mul(Complex a, Complex b)
{
    return Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

precise Complex Complex_operator_add_assign(inout Complex self, Complex o)
{
    self.re += o.re;
    self.im += o.im;
    return self;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    int v[4] = int[4](x[4u * i], x[4u * i + 1u], x[4u * i + 2u], x[4u * i + 3u]);
    lib_Accum_int_4 acc = lib_Accum_int_4_make();
    for (int k = 0; k < 4; k++)
    {
        lib_Accum_int_4_add(acc, v[k]);
    }
    precise float r = float(lib_detail_dot_table_int_4(v)) + float(lib_Accum_int_4_mean(acc));
    {
        r += float(lib_scaled(v[0], 5));
    }
    r += true ? 1.0 : 0.0;
    r += float(lib_Cursor_int_location(lib_Cursor_int_make(10)));
    float bias = 0.25;
    int calls = 0;
    r = lambda_100_18(r, calls, bias);
    r = lambda_100_18(r, calls, bias);
    r += float(calls);
    r += lambda_104_23(1.0, bias);
    out_[i] = r;
    mag[i] = lib_magnitude_int(x[4u * i]);
    precise Complex a = Complex(float(v[0]), float(v[1]));
    precise Complex b = Complex(float(v[2]), float(v[3]));
    precise Complex c = lib_operator_add(lib_operator_mul(a, b), a);
    Complex_operator_add_assign(c, b);
    cplx[i] = vec2(c.re, c.im);
}
