#version 450
// Translated by mtl2glsl 0.1.0 from mlx_quant_forms.metal, kernel e8m0_encode
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct e8m0
{
    uint8_t bits;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { uint out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

bool mtl_isfinite(float x) { return abs(x) <= 3.4028234663852886e38; }

float mtl_round(float x)
{
    // C round: halfway cases away from zero
    float t = trunc(x);
    return t + sign(x) * step(0.5, abs(x - t));
}

e8m0 e8m0_make(float x)
{
    e8m0 self;
    if (!mtl_isfinite(x))
    {
        self.bits = uint8_t(255);
        return self;
    }
    if (x < 0.0)
    {
        self.bits = uint8_t(0);
        return self;
    }
    int n = int(mtl_round(log2(x)));
    n = n < -127 ? -127 : n;
    n = n > 127 ? 127 : n;
    self.bits = uint8_t(n + 127);
    return self;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    out_[i] = uint(e8m0_make(x[i]).bits);
}
