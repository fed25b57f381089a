#version 450
// Translated by mtl2glsl 0.1.0 from front_forms.metal, kernel temporaries_tt

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Acc
{
    float v;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

precise float Acc_twice(Acc self)
{
    return 2.0 * self.v;
}

precise Acc make_acc(float x)
{
    return Acc(x * 3.0);
}

precise float Acc_to_float(Acc self)
{
    return self.v + 0.5;
}

bool constant_of_const_bool_true_to_bool()
{
    return true;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise float r = Acc_twice(make_acc(in_[i]));
    precise float s = Acc_to_float(make_acc(in_[i]));
    {
        r += 1e+02;
    }
    const bool both = constant_of_const_bool_true_to_bool();
    out_[i] = r + s + (both ? 1e+03 : 0.0);
}
