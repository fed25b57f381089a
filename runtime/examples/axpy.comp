#version 450
// Hand-written as the translator would emit it for:
//   kernel void axpy(device const float* x [[buffer(0)]], device float* y [[buffer(1)]],
//                    constant float& a [[buffer(2)]], uint i [[thread_position_in_grid]])
//   { y[i] = a * x[i] + y[i]; }
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer x_buf { float x[]; };
layout(std430, set = 0, binding = 1) buffer y_buf { float y[]; };

layout(push_constant, std430) uniform mtl_params_t {
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) float a;
} mtl_params;

void main()
{
    uvec3 gid = gl_GlobalInvocationID;
    if (any(greaterThanEqual(gid, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gid.x;
    y[i] = mtl_params.a * x[i] + y[i];
}
