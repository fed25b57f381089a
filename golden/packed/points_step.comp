#version 450
// Translated by mtl2glsl 0.1.0 from packed.metal, kernel points_step
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_scalar_block_layout : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// Metal's layout (in layout(scalar) blocks): mtl_pad members stand for the bytes the scalar layout would not leave.
struct Point
{
    vec3 pos;
    uint mtl_pad0;
    vec3 vel;
    uint mtl_pad1;
    uint8_t live;
    uint8_t hit;
    uint8_t bounces;
    uint8_t mtl_pad2;
    uint mtl_pad3;
    f16vec3 tint;
    uint16_t mtl_pad4;
    f16vec3 glow;
    u8vec2 seen;
    uint mtl_pad5;
    uint mtl_pad6;
};

layout(scalar, set = 0, binding = 0) buffer mtl_buffer_pts { precise Point pts[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) float dt;
    layout(offset = 20) float radius;
} mtl_params;

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    float dt = mtl_params.dt;
    float radius = mtl_params.radius;
    uint i = gl_GlobalInvocationID.x;
    precise Point p = pts[i];
    if (bool(p.live))
    {
        p.pos += p.vel * dt;
        precise vec3 q = p.pos;
        bool outside = any(greaterThan(abs(q), vec3(radius)));
        if (outside)
        {
            p.vel = -p.vel;
            p.bounces++;
        }
        p.hit = uint8_t(outside);
    }
    p.glow = p.glow * 2.0hf + p.tint;
    p.seen = u8vec2(bvec2(bool(p.live), bool(p.hit)));
    pts[i] = p;
}
