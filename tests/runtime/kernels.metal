// kernels.metal: small kernels for tests/runtime_cli.py (launch checks, typed scalars, dtypes, pipelines, bounds).
#include <metal_stdlib>
using namespace metal;

// y = a * x in bfloat storage (one rounding, at the store)
kernel void scale_bf16(device const bfloat *x [[buffer(0)]], device bfloat *y [[buffer(1)]],
                       constant float &a [[buffer(2)]], uint i [[thread_position_in_grid]])
{
    y[i] = a * float(x[i]);
}

// y = conj(x) * k for complex64 stored as float2
kernel void conj_scale(device const float2 *x [[buffer(0)]], device float2 *y [[buffer(1)]],
                       constant float &k [[buffer(2)]], uint i [[thread_position_in_grid]])
{
    y[i] = float2(x[i].x, -x[i].y) * k;
}

// y = x + k (uint), and h = x * s (float): scalars typed from the reflection
kernel void add_scale(device const uint *x [[buffer(0)]], device uint *y [[buffer(1)]], constant uint &k [[buffer(2)]],
                      device float *h [[buffer(3)]], constant float &s [[buffer(4)]], uint i [[thread_position_in_grid]])
{
    y[i] = x[i] + k;
    h[i] = float(x[i]) * s;
}

// pipeline steps: t = a * x; t += b; y = t + x
kernel void scale(device const float *x [[buffer(0)]], device float *t [[buffer(1)]], constant float &a [[buffer(2)]],
                  uint i [[thread_position_in_grid]])
{
    t[i] = a * x[i];
}

kernel void shift(device float *t [[buffer(0)]], constant float &b [[buffer(1)]], uint i [[thread_position_in_grid]])
{
    t[i] += b;
}

kernel void add(device const float *t [[buffer(0)]], device const float *x [[buffer(1)]], device float *y [[buffer(2)]],
                uint i [[thread_position_in_grid]])
{
    y[i] = t[i] + x[i];
}

// a block sum through host-sized threadgroup memory: one slot per thread
kernel void block_sum(device const float *x [[buffer(0)]], device float *sums [[buffer(1)]],
                      threadgroup float *part [[threadgroup(0)]], uint i [[thread_position_in_grid]],
                      uint lid [[thread_position_in_threadgroup]], uint group [[threadgroup_position_in_grid]],
                      uint threads [[threads_per_threadgroup]])
{
    part[lid] = x[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0) {
        float s = 0;
        for (uint j = 0; j < threads; j++)
            s += part[j];
        sums[group] = s;
    }
}

constant bool use_bias [[function_constant(0)]];
constant float bias [[function_constant(1)]];

// y = x (+ bias when use_bias): function constants of two kinds
kernel void maybe_bias(device const float *x [[buffer(0)]], device float *y [[buffer(1)]],
                       uint i [[thread_position_in_grid]])
{
    y[i] = use_bias ? x[i] + bias : x[i];
}

// reads x[i + 3]: out of range for the last three threads (the bounds-check test)
kernel void shifted_read(device const float *x [[buffer(0)]], device float *y [[buffer(1)]],
                         uint i [[thread_position_in_grid]])
{
    y[i] = x[i + 3];
}

// y = 2 x through threadgroup memory, each thread its own slot; the early return leaves the size unproven (the
// threadgroup bounds-check test)
kernel void guarded_stage(device const float *x [[buffer(0)]], device float *y [[buffer(1)]],
                          constant uint &n [[buffer(2)]], threadgroup float *slot [[threadgroup(0)]],
                          uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]])
{
    if (i >= n)
        return;
    slot[lid] = x[i];
    y[i] = 2.0f * slot[lid];
}

// what the translator proves a [[threadgroup(n)]] parameter needs (reflection min_elements, min_per_thread):
// a: slot 5 and one per thread (thread_index_in_threadgroup) at the top of the body; b: only indices that may not
// run (a ?: arm, after &&, inside if); c: indexed by a thread position that the kernel changes; d: by a constant
// in a declaration, through a cast
kernel void tg_needs(device float *y [[buffer(0)]], threadgroup float *a [[threadgroup(0)]],
                     threadgroup float *b [[threadgroup(1)]], threadgroup float *c [[threadgroup(2)]],
                     threadgroup uint *d [[threadgroup(3)]], uint idx [[thread_index_in_threadgroup]],
                     uint2 pos [[thread_position_in_threadgroup]])
{
    a[5] = 1.0f;
    a[idx] = 2.0f;
    uint e = d[(uint)9];
    float t = y[0] > 0 ? b[40] : 0.0f;
    bool u = y[1] > 0 && b[41] > 0;
    if (u)
        b[50] = t;
    pos.x += 1;
    c[pos.x] = t;
    y[2] = e;
}
