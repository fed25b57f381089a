#include <metal_stdlib>
using namespace metal;

// Pointers whose buffer is chosen at run time (buffer references in the GLSL), and the other pointer forms
// added after samples/pointers.metal.

float sum4(device const float* p) {
    return p[0] + p[1] + p[2] + p[3];
}

// A pointer reassigned in a branch, a ternary between two buffers, a helper called with either buffer from
// one call site in a loop.
kernel void runtime_roots(device const float* x [[buffer(0)]],
                          device const float* w [[buffer(1)]],
                          device float* y [[buffer(2)]],
                          constant uint& split [[buffer(3)]],
                          uint i [[thread_position_in_grid]]) {
    device const float* p = x;
    if (i >= split)
        p = w + 1;
    device const float* q = (i & 1u) != 0u ? x : w;
    float acc = 0.0f;
    for (uint k = 0; k < 3; k++) {
        device const float* src = (k & 1u) == 0u ? x : w;
        acc += sum4(src + i + k);
    }
    y[i] = p[i] + 2.0f * q[i] + acc;
}

// A pointer reassigned after the helper call that reads it, in a loop.
kernel void runtime_loop(device const float* x [[buffer(0)]],
                         device const float* w [[buffer(1)]],
                         device float* y [[buffer(2)]],
                         uint i [[thread_position_in_grid]]) {
    device const float* p = x;
    float acc = 0.0f;
    for (int k = 0; k < 3; k++) {
        acc = acc * 2.0f + sum4(p + i);
        p = (k & 1) == 0 ? w : x + 1;
    }
    y[i] = acc;
}

void bump(device float* p, float v) {
    *p += v;
}

// Stores through a pointer into one of three buffers, through a float4 view of it and through a helper.
kernel void runtime_store(device float* a [[buffer(0)]],
                          device float* b [[buffer(1)]],
                          device float* c [[buffer(2)]],
                          device const float4* src [[buffer(3)]],
                          uint i [[thread_position_in_grid]]) {
    uint which = i % 3u;
    device float* out = which == 0u ? a : which == 1u ? b : c;
    device float4* o4 = (device float4*)out + i;
    *o4 = *o4 * 2.0f + src[i];
    bump(out + 4 * i + 3, float(which));
    out += 4 * i;
    out[0] -= 1.0f;
}

// A helper returning a pointer: the start of row r of a matrix with `cols` columns.
device const float* row_of(device const float* m, uint r, uint cols) {
    return m + r * cols;
}

// A pointer chosen at run time between a helper's returned row and another buffer, read through a float4 view.
kernel void runtime_rows(device const float* x [[buffer(0)]],
                         device const float* w [[buffer(1)]],
                         device float4* y [[buffer(2)]],
                         uint i [[thread_position_in_grid]]) {
    device const float* p = (i & 1u) != 0u ? row_of(x, i, 8) : w + 8 * i;
    device const float4* q = (device const float4*)p + 1;
    y[i] = *q + (i > 3u ? x : w)[i];
}

// Pointers into a local array handed to helpers that read and write through them.
float dot_local(thread const float* a, device const float* b, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += a[k] * b[k];
    return s;
}

void scale_local(thread float* p, int n, float f) {
    for (int k = 0; k < n; k++)
        p[k] *= f;
}

kernel void rows_and_locals(device const float* m [[buffer(0)]],
                            device float* y [[buffer(1)]],
                            constant uint& cols [[buffer(2)]],
                            uint r [[thread_position_in_grid]]) {
    device const float* rr = row_of(m, r, cols);
    float v[8];
    for (uint k = 0; k < 8; k++)
        v[k] = float(k + 1) * rr[k];
    scale_local(v + 4, 4, 0.5f);
    scale_local(&v[1], 2, -1.0f);
    y[r] = dot_local(v, row_of(m, r, cols) + 8, 8);
}

struct Particle {       // 32 bytes under Metal's layout: pos at 0, vel at 16, mass at 28
    float3 pos;
    float2 vel;
    float mass;
};

void add_to(device float* p, float v) {
    *p += v;
}

// Pointers to members of structs in a buffer: &ps[i].mass, &q->vel (the buffer read as the member's type).
kernel void member_pointers(device Particle* ps [[buffer(0)]],
                            uint i [[thread_position_in_grid]]) {
    device float* mass = &ps[i].mass;
    device Particle* q = ps + i;
    device float2* vel = &q->vel;
    *vel = *vel * mass[0];
    add_to(&ps[i].mass, 1.0f);
}

// Threadgroup memory read through pointers of another element type: a float tile summed four at a time through
// a float4 pointer, and a float2 tile whose scalars are walked through a float pointer.
kernel void tile_views(device const float* x [[buffer(0)]],
                       device float* y [[buffer(1)]],
                       uint lid [[thread_position_in_threadgroup]],
                       uint gid [[thread_position_in_grid]]) {
    threadgroup float tile[128];
    threadgroup float2 pairs[32];
    tile[lid] = x[gid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid < 32u) {
        threadgroup const float4* t4 = (threadgroup const float4*)tile + lid;
        float4 v = *t4;
        pairs[lid] = float2(v.x + v.y, v.z * v.w);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    threadgroup const float* s = (threadgroup const float*)pairs;
    y[gid] = s[(lid * 5u) % 64u] + tile[127u - lid];
}
