#version 450
// Translated by mtl2glsl 0.1.0 from packed.metal, kernel cloud_transform
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_scalar_block_layout : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Frame
{
    vec3 origin;
    float scale;
    vec3 axis;
    uint count;
};

layout(scalar, set = 0, binding = 0) readonly buffer mtl_buffer_pos { vec3 pos[]; };
layout(scalar, set = 0, binding = 1) readonly buffer mtl_buffer_color { f16vec4 color[]; };
layout(scalar, set = 0, binding = 3) writeonly buffer mtl_buffer_out_ { precise vec3 out_[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_weight { precise float weight[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, scalar) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) Frame frame;
} mtl_params;

precise vec3 midpoint(vec3 a, vec3 b)
{
    return (a + b) * 0.5;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    Frame frame = mtl_params.frame;
    uint i = gl_GlobalInvocationID.x;
    if (i >= frame.count)
    {
        return;
    }
    precise vec3 p = pos[i];
    precise vec3 d = (p - frame.origin) * frame.scale;
    precise vec3 q = d + cross(frame.axis, d);
    q[1] = q.y + float(color[i].w);
    out_[i] = q;
    precise f16vec4 c = color[i];
    weight[i] = dot(vec3(c.rgb), vec3(pos[i][0], pos[i][1], pos[i][2])) + midpoint(pos[i], d).z;
}
