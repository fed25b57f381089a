#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel float_min_max

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_m { float m[]; };
layout(std430, set = 0, binding = 1) buffer mtl_buffer_m_as_uint { uint m_as_uint[]; }; // 'm' read as uint

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Float atomic min/max order: a NaN operand changes nothing, a NaN in memory is replaced, -0.0 < +0.0.
bool mtl_float_less(float a, float b)
{
    return a < b || (a == b && floatBitsToUint(a) > floatBitsToUint(b));
}

// atomic_fetch_min_explicit on 'm': a compare-exchange loop on the float's bits
float mtl_fetch_min_m(uint i, float v)
{
    uint seen = m_as_uint[i];
    while (true) {
        float old = uintBitsToFloat(seen);
        if (isnan(v) || !(isnan(old) || mtl_float_less(v, old)))
            return old;
        uint found = atomicCompSwap(m_as_uint[i], seen, floatBitsToUint(v));
        if (found == seen)
            return old;
        seen = found;
    }
}

// atomic_fetch_max_explicit on 'm': a compare-exchange loop on the float's bits
float mtl_fetch_max_m(uint i, float v)
{
    uint seen = m_as_uint[i];
    while (true) {
        float old = uintBitsToFloat(seen);
        if (isnan(v) || !(isnan(old) || mtl_float_less(old, v)))
            return old;
        uint found = atomicCompSwap(m_as_uint[i], seen, floatBitsToUint(v));
        if (found == seen)
            return old;
        seen = found;
    }
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    uint i = gl_GlobalInvocationID.x;
    mtl_fetch_min_m(0u, x[i]);
    mtl_fetch_max_m(1u, x[i]);
    mtl_fetch_min_m(2u + i % 2u, x[i]);
}
