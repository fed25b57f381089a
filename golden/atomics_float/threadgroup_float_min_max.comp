#version 450
// Translated by mtl2glsl 0.1.0 from atomics_float.metal, kernel threadgroup_float_min_max

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

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_x { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer mtl_buffer_out_ { precise float out_[]; };

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// Threadgroup memory.
shared uint lo; // atomic<float> as its bits
shared uint hi_sum[2]; // atomic<float> as its bits

// Float atomic min/max order: a NaN operand changes nothing, a NaN in memory is replaced, -0.0 < +0.0.
bool mtl_float_less(float a, float b)
{
    return a < b || (a == b && floatBitsToUint(a) > floatBitsToUint(b));
}

// atomic_fetch_min_explicit on 'lo': a compare-exchange loop on the float's bits
float mtl_fetch_min_lo(float v)
{
    uint seen = lo;
    while (true) {
        float old = uintBitsToFloat(seen);
        if (isnan(v) || !(isnan(old) || mtl_float_less(v, old)))
            return old;
        uint found = atomicCompSwap(lo, seen, floatBitsToUint(v));
        if (found == seen)
            return old;
        seen = found;
    }
}

// atomic_fetch_max_explicit on 'hi_sum': a compare-exchange loop on the float's bits
float mtl_fetch_max_hi_sum(uint i, float v)
{
    uint seen = hi_sum[i];
    while (true) {
        float old = uintBitsToFloat(seen);
        if (isnan(v) || !(isnan(old) || mtl_float_less(old, v)))
            return old;
        uint found = atomicCompSwap(hi_sum[i], seen, floatBitsToUint(v));
        if (found == seen)
            return old;
        seen = found;
    }
}

// atomic_fetch_add_explicit on 'hi_sum': a compare-exchange loop on the float's bits
float mtl_fetch_add_hi_sum(uint i, float v)
{
    uint seen = hi_sum[i];
    while (true) {
        float old = uintBitsToFloat(seen);
        uint found = atomicCompSwap(hi_sum[i], seen, floatBitsToUint(old + v));
        if (found == seen)
            return old;
        seen = found;
    }
}

void main()
{
    uint i = (gl_WorkGroupID * mtl_threads_per_threadgroup_full + gl_LocalInvocationID).x;
    uint lid = gl_LocalInvocationIndex;
    uint group = gl_WorkGroupID.x;
    if (lid == 0u)
    {
        atomicExchange(lo, floatBitsToUint(uintBitsToFloat(0x7f800000u)));
        atomicExchange(hi_sum[0], floatBitsToUint(-uintBitsToFloat(0x7f800000u)));
        atomicExchange(hi_sum[1], floatBitsToUint(0.0));
    }
    memoryBarrierShared();
    barrier();
    mtl_fetch_min_lo(x[i]);
    mtl_fetch_max_hi_sum(0u, x[i]);
    mtl_fetch_add_hi_sum(1u, roundEven(x[i]));
    memoryBarrierShared();
    barrier();
    if (lid == 0u)
    {
        out_[3u * group] = uintBitsToFloat(atomicOr(lo, 0u));
        out_[3u * group + 1u] = uintBitsToFloat(atomicOr(hi_sum[0], 0u));
        out_[3u * group + 2u] = uintBitsToFloat(atomicOr(hi_sum[1], 0u));
    }
}
