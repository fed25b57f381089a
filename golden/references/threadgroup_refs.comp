#version 450
// Translated by mtl2glsl 0.1.0 from references.metal, kernel threadgroup_refs

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

struct SharedView
{
    uint v;
};

struct Cell
{
    vec2 pair[2];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_in_ { float in_[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
precise shared float shared_[64];

uint SharedView_at_shared_(inout SharedView self, uint i)
{
    return self.v + i;
}

uint slot_shared_(uint a, uint i)
{
    return a + i;
}

uint SharedView_at_2_shared_(SharedView self, uint i)
{
    return self.v + i;
}

precise Cell Cell_make()
{
    precise Cell self;
    self.pair = vec2[2](vec2(0), vec2(0.0));
    return self;
}

void main()
{
    uint id = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationID.x;
    uint n = mtl_params.mtl_threads_per_grid.x;
    SharedView s = SharedView(0u);
    shared_[SharedView_at_shared_(s, lid)] = in_[id];
    memoryBarrierShared();
    barrier();
    if (lid == 0u)
    {
        for (uint i = 0u; i < 64u; i++)
        {
            shared_[slot_shared_(0u, i)] *= 2.0;
        }
    }
    memoryBarrierShared();
    barrier();
    const SharedView r = SharedView(0u);
    out_[id] = shared_[SharedView_at_2_shared_(r, 63u - lid)] + 1.0;
    precise Cell cell = Cell_make();
    cell.pair[1].y = in_[id];
    cell.pair[1].x = cell.pair[1].y * 3.0;
    out_[n + id] = cell.pair[1].x + cell.pair[0].y;
}
