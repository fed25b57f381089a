#version 450
// Translated by mtl2glsl 0.1.0 from steel_forms.metal, kernel row_ops

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct RowTile
{
    vec2 frags[2][2];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_floor_ { float floor_[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_y { precise float y[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_row_max { precise float row_max[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

int mtl_rem(int a, int b) { return a - b * (a / b); } // C's %: GLSL leaves % of negatives undefined

precise float MaxOp_apply(float x, float y)
{
    return max(x, y);
}

void RowFrag_row_reduce_void_vals(vec2 frag, uint reduced, inout float vals[2])
{
    vals[reduced] = MaxOp_apply(vals[reduced], MaxOp_apply(frag.x, frag.y));
}

void RowTile_row_reduce_void(RowTile self, inout float vals[2])
{
    for (int i = 0; i < 2; i++)
    {
        for (int j = 0; j < 2; j++)
        {
            RowFrag_row_reduce_void_vals(self.frags[i][j], uint(i), vals);
        }
    }
}

precise float ScaleOp_apply(float x, float y)
{
    return x * y;
}

void RowFrag_row_bin_op_void_vals(inout vec2 frag, uint row_vals, inout float vals[2])
{
    frag.x = ScaleOp_apply(frag.x, vals[row_vals]);
    frag.y = ScaleOp_apply(frag.y, vals[row_vals]);
}

void RowTile_row_bin_op_void(inout RowTile self, inout float vals[2])
{
    for (int i = 0; i < 2; i++)
    {
        for (int j = 0; j < 2; j++)
        {
            RowFrag_row_bin_op_void_vals(self.frags[i][j], uint(i), vals);
        }
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise RowTile t;
    for (int r = 0; r < 2; r++)
    {
        for (int c = 0; c < 4; c++)
        {
            t.frags[r][c / 2][mtl_rem(c, 2)] = x[i * 8u + uint(r * 4) + uint(c)];
        }
    }
    precise float m[2] = float[2](floor_[i], floor_[i]);
    RowTile_row_reduce_void(t, m);
    RowTile_row_bin_op_void(t, m);
    for (int r = 0; r < 2; r++)
    {
        row_max[i * 2u + uint(r)] = m[r];
        for (int c = 0; c < 4; c++)
        {
            y[i * 8u + uint(r * 4) + uint(c)] = t.frags[r][c / 2][mtl_rem(c, 2)];
        }
    }
}
