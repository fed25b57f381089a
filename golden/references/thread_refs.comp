#version 450
// Translated by mtl2glsl 0.1.0 from references.metal, kernel thread_refs
#extension GL_EXT_shader_explicit_arithmetic_types : require

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

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint id = gl_GlobalInvocationID.x;
    precise Tile t = Tile_make();
    for (int i = 0; i < 8; i++)
    {
        t.frags[i / 2][mtl_rem(i, 2)] = in_[8u * id + uint(i)];
    }
    t.frags[0 * 2 + 1] += vec2(10, 20);
    t.frags[1 * 2 + 0].y = t.frags[0 * 2 + 0].x * 2.0;
    int16_t j = int16_t(1);
    int r_i = 1 * 2 + int(j);
    j = int16_t(0);
    t.frags[r_i] *= 3.0;
    t.frags[r_i].x += t.frags[1 * 2 + int(j)].x;
    int c_i2 = 0 * 2 + 0;
    t.frags[0 * 2 + 0].x = float(-1);
    t.frags[2].y += t.frags[c_i2].x;
    out_[8u * id + 0u] = t.frags[c_i2].x + t.frags[c_i2].y;
    for (int i = 1; i < 8; i++)
    {
        out_[8u * id + uint(i)] = t.frags[i / 2][mtl_rem(i, 2)];
    }
}
