#version 450
// Translated by mtl2glsl 0.1.0 from references.metal, kernel aliased_refs

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Tile
{
    vec2 frags[4];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

precise Tile Tile_make()
{
    precise Tile self;
    self.frags = vec2[4](vec2(0), vec2(0.0), vec2(0.0), vec2(0.0));
    return self;
}

void fma_tiles_c_is_d(inout Tile d, Tile a, Tile b)
{
    for (int k = 0; k < 2; k++)
    {
        for (int i = 0; i < 2; i++)
        {
            for (int j = 0; j < 2; j++)
            {
                d.frags[i * 2 + j] = a.frags[i * 2 + j] * b.frags[i * 2 + j] + d.frags[i * 2 + j];
            }
        }
    }
}

precise float sum_tile(Tile t)
{
    precise float s = 0.0;
    for (int i = 0; i < 2; i++)
    {
        for (int j = 0; j < 2; j++)
        {
            s += t.frags[i * 2 + j].x + t.frags[i * 2 + j].y;
        }
    }
    return s;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint id = gl_GlobalInvocationID.x;
    precise Tile a = Tile_make();
    precise Tile acc = Tile_make();
    for (int i = 0; i < 8; i++)
    {
        a.frags[i / 2][mtl_rem(i, 2)] = in_[8u * id + uint(i)];
        acc.frags[i / 2][mtl_rem(i, 2)] = in_[8u * id + uint(i)];
    }
    fma_tiles_c_is_d(acc, a, a);
    out_[id] = sum_tile(acc);
}
