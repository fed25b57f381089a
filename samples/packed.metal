#include <metal_stdlib>
using namespace metal;

// Packed vectors and bool in buffer memory, laid out exactly as Metal lays them out:
// packed_float3 is 12 bytes aligned 4 (float3: 16 bytes aligned 16), packed_half4 8 bytes aligned 2,
// bool 1 byte, bool2 2, bool3 4 (aligned 4), bool4 4.

// A constant block of packed vectors: origin 0, scale 12, axis 16, count 28; 32 bytes.
struct Frame {
    packed_float3 origin;
    float scale;
    packed_float3 axis;
    uint count;
};

// A point mixing packed and ordinary vectors, bools and bytes:
// pos 0 (12 bytes), vel 16 (float3), live 32, hit 33, bounces 34, tint 40 (half3: 8-aligned),
// glow 48 (packed_half3: 6 bytes), seen 54 (bool2); 56 bytes rounded to 64 (float3's alignment).
struct Point {
    packed_float3 pos;
    float3 vel;
    bool live;
    bool hit;
    uchar bounces;
    half3 tint;
    packed_half3 glow;
    bool2 seen;
};

static float3 midpoint(packed_float3 a, float3 b) {
    return (a + b) * 0.5f;
}

// A point cloud: positions as packed_float3 (stride 12), colors as packed_half4 (stride 8).
kernel void cloud_transform(device const packed_float3* pos [[buffer(0)]],
                            device const packed_half4* color [[buffer(1)]],
                            constant Frame& frame [[buffer(2)]],
                            device packed_float3* out [[buffer(3)]],
                            device float* weight [[buffer(4)]],
                            uint i [[thread_position_in_grid]]) {
    if (i >= frame.count)
        return;
    float3 p = pos[i];
    float3 d = (p - frame.origin) * frame.scale;
    packed_float3 q = d + cross(frame.axis, d);
    q[1] = q.y + float(color[i].w);
    out[i] = q;
    half4 c = color[i];
    weight[i] = dot(float3(c.rgb), float3(pos[i][0], pos[i][1], pos[i][2])) + midpoint(pos[i], d).z;
}

// A float buffer read as packed_float3 triples; a local array of packed vectors.
kernel void cloud_from_floats(device const float* raw [[buffer(0)]],
                              device float4* out [[buffer(1)]],
                              uint i [[thread_position_in_grid]]) {
    device const packed_float3* v = (device const packed_float3*)raw;
    packed_float3 pair[2] = {v[2 * i], v[2 * i + 1]};
    out[i] = float4(pair[0].zyx + pair[1], pair[1][2]);
}

// Whole-struct load and store: padding bytes (between pos and vel, after tint and at the end) survive.
kernel void points_step(device Point* pts [[buffer(0)]],
                        constant float& dt [[buffer(1)]],
                        constant float& radius [[buffer(2)]],
                        uint i [[thread_position_in_grid]]) {
    Point p = pts[i];
    if (p.live) {
        p.pos += p.vel * dt;
        float3 q = p.pos;
        bool outside = any(abs(q) > radius);
        if (outside) {
            p.vel = -p.vel;
            p.bounces++;
        }
        p.hit = outside;
    }
    p.glow = p.glow * 2.0h + p.tint;
    p.seen = bool2(p.live, p.hit);
    pts[i] = p;
}

// Member stores only: every byte of a point not named here stays as it was.
kernel void points_flag(device Point* pts [[buffer(0)]],
                        uint i [[thread_position_in_grid]]) {
    pts[i].live = pts[i].bounces < 3 && !pts[i].hit;
    pts[i].seen.y = !pts[i].seen.y;
    pts[i].pos.x = pts[i].live ? pts[i].pos.x : 0.0f;
}

// A constant struct with a bool (push constants): t 0, below 4; 8 bytes.
struct Threshold {
    float t;
    bool below;
};

// device bool: a nonzero byte reads as true; stores write 0 or 1.
kernel void mask_threshold(device const float* x [[buffer(0)]],
                           device const bool* keep [[buffer(1)]],
                           device bool* mask [[buffer(2)]],
                           device float* y [[buffer(3)]],
                           constant Threshold& th [[buffer(4)]],
                           uint i [[thread_position_in_grid]]) {
    bool m = keep[i] && (x[i] > th.t) != th.below;
    mask[i] = m;
    y[i] = m ? x[i] : 0.0f;
}

// bool2 (2 bytes), bool3 (4 bytes: the fourth is padding) and bool4 buffers.
kernel void mask_vectors(device const bool3* a [[buffer(0)]],
                         device const bool2* b [[buffer(1)]],
                         device bool3* c [[buffer(2)]],
                         device bool4* d [[buffer(3)]],
                         device uint* bits [[buffer(4)]],
                         uint i [[thread_position_in_grid]]) {
    bool3 x = a[i];
    bool2 y = b[i];
    c[i] = bool3(x.x && y.y, x.y || y.x, !x.z);
    c[i].x = c[i].x || x.z;
    d[i] = bool4(y, x.zy);
    bits[i] = uint(x.x) | uint(x.y) << 1 | uint(x.z) << 2 | uint(y[0]) << 3 | uint(b[i][1]) << 4;
}

// Threadgroup memory of packed vectors and of a struct with bool members; a device bool& flag.
struct Seen {
    packed_float3 at;
    bool near;
};

kernel void cloud_centroid(device const packed_float3* pos [[buffer(0)]],
                           device packed_float3* centroid [[buffer(1)]],
                           device bool& any_near [[buffer(2)]],
                           device uchar* near_count [[buffer(3)]],
                           uint i [[thread_position_in_grid]],
                           uint lid [[thread_position_in_threadgroup]],
                           uint gid [[threadgroup_position_in_grid]]) {
    threadgroup packed_float3 tile[32];
    threadgroup Seen seen[32];
    tile[lid] = pos[i];
    seen[lid].at = pos[i];
    seen[lid].near = dot(float3(pos[i]), float3(pos[i])) < 4.0f;
    if (seen[lid].near)
        any_near = true;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0) {
        float3 s = 0.0f;
        uchar n = 0;
        for (uint k = 0; k < 32; k++) {
            s += tile[k];
            n += seen[k].near ? 1 : 0;
        }
        centroid[gid] = s / 32.0f;
        near_count[gid] = n;
    }
}
