#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel coords_array
#extension GL_EXT_shader_explicit_arithmetic_types : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct ShapeParams
{
    int sizes[3];
    float scale;
};

layout(std430, set = 0, binding = 0) writeonly buffer mtl_buffer_out_ { ivec4 out_[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_params { ShapeParams params[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int sizes[3];
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

int[3] coords_of_3(int idx, int sizes[3])
{
    int pos[3];
    for (uint i = 0u; uint64_t(i) < 3ul; ++i)
    {
        pos[i] = mtl_rem(idx, sizes[i]);
        idx /= sizes[i];
    }
    return pos;
}

void reverse(inout int a[3])
{
    int t = a[0];
    a[0] = a[2];
    a[uint(3ul - 1ul)] = t;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int sizes[3] = mtl_params.sizes;
    uint i = gl_GlobalInvocationID.x;
    int pos[3] = coords_of_3(int(i), sizes);
    int copy[3] = pos;
    reverse(copy);
    out_[i] = ivec4(copy[0], copy[1], copy[2], int(float(pos[0] + params[0].sizes[2]) * params[0].scale));
}
