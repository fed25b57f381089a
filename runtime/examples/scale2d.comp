#version 450
// Hand-written as the translator would emit it for:
//   struct Params { uint width; float scale; };
//   kernel void scale2d(device const half* src [[buffer(0)]], device half* dst [[buffer(1)]],
//                       constant Params& p [[buffer(2)]], uint2 gid [[thread_position_in_grid]])
//   { uint i = gid.y * p.width + gid.x; dst[i] = src[i] * half(p.scale) + half(gid.x); }
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Params {
    uint width;
    float scale;
};

layout(std430, set = 0, binding = 0) readonly buffer src_buf { float16_t src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer dst_buf { float16_t dst[]; };

layout(push_constant, std430) uniform mtl_params_t {
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) Params p;
} mtl_params;

void main()
{
    uvec3 gid = gl_GlobalInvocationID;
    if (any(greaterThanEqual(gid, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gid.y * mtl_params.p.width + gid.x;
    dst[i] = src[i] * float16_t(mtl_params.p.scale) + float16_t(gid.x);
}
