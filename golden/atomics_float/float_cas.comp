#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel float_cas
#extension GL_EXT_shader_atomic_float : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_acc { float acc[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_acc_as_uint { uint acc_as_uint[]; }; // 'acc' read as uint
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_flags { int flags[]; };
layout(std430, set = 0, binding = 3) writeonly buffer mtl_buffer_seen { precise float seen[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

uint mtl_cas_uint; // atomic_compare_exchange_weak_explicit: the value found

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    precise float expected = uintBitsToFloat(atomicOr(acc_as_uint[0], 0u));
    while (!((mtl_cas_uint = atomicCompSwap(acc_as_uint[0], floatBitsToUint(expected), floatBitsToUint(expected * x[i]))) == floatBitsToUint(expected) || (expected = uintBitsToFloat(mtl_cas_uint), false)))
    {
    }
    precise float big = uintBitsToFloat(atomicOr(acc_as_uint[1], 0u));
    while (abs(x[i]) > big && !((mtl_cas_uint = atomicCompSwap(acc_as_uint[1], floatBitsToUint(big), floatBitsToUint(abs(x[i])))) == floatBitsToUint(big) || (big = uintBitsToFloat(mtl_cas_uint), false)))
    {
    }
    atomicAdd(acc[4], -abs(x[i]));
    if (i == 0u)
    {
        precise float nan_found = uintBitsToFloat(atomicOr(acc_as_uint[2], 0u));
        flags[0] = (mtl_cas_uint = atomicCompSwap(acc_as_uint[2], floatBitsToUint(nan_found), floatBitsToUint(7.0))) == floatBitsToUint(nan_found) || (nan_found = uintBitsToFloat(mtl_cas_uint), false) ? 1 : 0;
        float plus_zero = 0.0;
        flags[1] = (mtl_cas_uint = atomicCompSwap(acc_as_uint[3], floatBitsToUint(plus_zero), floatBitsToUint(5.0))) == floatBitsToUint(plus_zero) || (plus_zero = uintBitsToFloat(mtl_cas_uint), false) ? 1 : 0;
        seen[0] = plus_zero;
    }
}
