#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel bool_vectors
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_f { vec4 f[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_h { f16vec4 h[]; };
layout(std430, set = 0, binding = 2) readonly buffer mtl_buffer_l { i64vec2 l[]; };
layout(std430, set = 0, binding = 3) readonly buffer mtl_buffer_m3 { u8vec3 m3[]; };
layout(std430, set = 0, binding = 4) writeonly buffer mtl_buffer_out2 { u8vec2 out2[]; };
layout(std430, set = 0, binding = 5) writeonly buffer mtl_buffer_out4 { u8vec4 out4[]; };
layout(std430, set = 0, binding = 6) writeonly buffer mtl_buffer_ints { ivec4 ints[]; };
layout(std430, set = 0, binding = 7) writeonly buffer mtl_buffer_floats { precise vec4 floats[]; };
layout(std430, set = 0, binding = 8) writeonly buffer mtl_buffer_mixed { u8vec4 mixed[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

bvec2 both_less(i64vec2 p, i64vec2 q)
{
    return lessThan(p, q);
}

int count_true_bool3(bvec3 v)
{
    return int(v.x) + int(v.y) + int(v.z);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise const vec4 a = f[2u * i];
    precise const vec4 b = f[2u * i + 1u];
    precise const f16vec4 ha = h[2u * i];
    precise const f16vec4 hb = h[2u * i + 1u];
    bvec4 lt = lessThan(a, b);
    bvec4 hge;
    hge = greaterThanEqual(ha, hb);
    bvec2 lne = both_less(l[2u * i], l[2u * i + 1u]);
    const bvec3 m = bvec3(m3[i]);
    out4[i] = u8vec4(notEqual(lt, hge));
    out2[i] = u8vec2(bvec2(uvec2(lne) | uvec2(bvec2(m.xy))));
    mixed[i] = u8vec4(bvec4(uvec4((equal(lt, greaterThan(a, vec4(0.0))))) & uvec4((bvec4(uvec4(lessThan(b, vec4(1.0))) | uvec4(hge))))));
    bvec3 nz = bvec3(ivec3(int(i % 3u), 0, -2));
    nz.y = true;
    const int s = int(m.x) + int(m.y) - int(m.z);
    ints[i] = ivec4(lt) * 10 + ivec4(m, false) - ivec4(hge) + ivec4(nz, count_true_bool3(m) + 4 * s) + mix(1, -1, bool(s & 1)) * 100;
    floats[i] = mix(b, a, lt) + mix(vec4(0.0), vec4(1e+02), equal(ha, hb)) + vec4(float(any(lt)), float(all(hge)), float(all(m)) * 1e+03, float(int(nz.x) - int(nz.y)));
}
