#version 450
// Translated by mtl2glsl 0.1.0 from pointers2.metal, kernel runtime_store
#extension GL_EXT_buffer_reference : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer mtl_buffer_a { precise float a[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_b { precise float b[]; };
layout(std430, set = 0, binding = 2) buffer mtl_buffer_c { precise float c[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_src { vec4 src[]; };

// Buffers that pointers chosen at run time point into, by device address (docs/translator.md, "Pointers").
layout(buffer_reference, std430) buffer mtl_ref_float { float v[]; };
layout(buffer_reference, std430) buffer mtl_ref_vec4 { vec4 v[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) mtl_ref_float a_addr;
    layout(offset = 24) mtl_ref_float b_addr;
    layout(offset = 32) mtl_ref_float c_addr;
} mtl_params;

void bump_addr(mtl_ref_float p_ref, uint p, float v)
{
    p_ref.v[p] += v;
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    uint which = i % 3u;
    mtl_ref_float out__ref = (which == 0u ? mtl_params.a_addr : (which == 1u ? mtl_params.b_addr : mtl_params.c_addr));
    uint out_ = 0u;
    mtl_ref_vec4 o4_ref = mtl_ref_vec4(out__ref);
    uint o4 = out_ / 4u + i;
    o4_ref.v[o4] = o4_ref.v[o4] * 2.0 + src[i];
    bump_addr(out__ref, out_ + 4u * i + 3u, float(which));
    out_ += 4u * i;
    out__ref.v[out_] -= 1.0;
}
