#version 450
// Translated by mtl2glsl 0.1.0 from mlx_quant_forms.metal, kernel reverse_double

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

struct ReadWriter_float
{
    uint in_;
    uint buf;
    uint out_;
    int n;
};

struct Span
{
    uint data;
    int len;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_y { precise float y[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_last { precise float last[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int n;
} mtl_params;

// Threadgroup memory.
precise shared float shared_[64];

ReadWriter_float ReadWriter_float_make_x_shared__y(uint in_, uint buf_, uint out_, int n_)
{
    ReadWriter_float self;
    self.in_ = in_;
    self.buf = buf_;
    self.out_ = out_;
    self.n = n_;
    return self;
}

void ReadWriter_float_load_x_shared__y(ReadWriter_float self, uint i)
{
    shared_[self.buf + i] = x[self.in_ + i] * 2.0;
}

void ReadWriter_float_write_x_shared__y(ReadWriter_float self, uint i)
{
    uint seq = self.buf + uint((self.n - 1));
    y[self.out_ + i] = shared_[seq - i];
}

precise float last_of_x(Span s)
{
    return x[s.data + uint(s.len - 1)];
}

void main()
{
    int n = mtl_params.n;
    uint lid = gl_LocalInvocationID.x;
    uint tg = gl_WorkGroupID.x;
    ReadWriter_float io = ReadWriter_float_make_x_shared__y(tg * uint(n), 0u, tg * uint(n), n);
    ReadWriter_float_load_x_shared__y(io, lid);
    memoryBarrierShared();
    barrier();
    ReadWriter_float_write_x_shared__y(io, lid);
    Span s = Span(tg * uint(n), n);
    if (lid == 0u)
    {
        last[tg] = last_of_x(s);
    }
}
