#version 450
// Translated by mtl2glsl 0.1.0 from mlx_forms.metal, kernel odometer

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Odometer
{
    int index;
    int carries;
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_steps { int steps[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { int out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int size;
} mtl_params;

void Odometer_next(inout Odometer self, int n, int size)
{
    while (true)
    {
        if (size <= 0)
        {
            return;
        }
        self.index += n;
        if (self.index >= size)
        {
            int extra = self.index - size;
            self.index = 0;
            self.carries++;
            if (extra > 0)
            {
                {
                    int mtl_next_n = extra;
                    n = mtl_next_n;
                    continue;
                }
            }
        }
        break;
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int size = mtl_params.size;
    uint i = gl_GlobalInvocationID.x;
    Odometer o;
    o.index = 0;
    o.carries = 0;
    for (int k = 0; k < 4; k++)
    {
        Odometer_next(o, steps[i * 4u + uint(k)], size);
    }
    out_[2u * i] = o.index;
    out_[2u * i + 1u] = o.carries;
}
