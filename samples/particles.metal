#include <metal_stdlib>
using namespace metal;

// A struct array laid out as Metal lays it out: float3 members take 16 bytes (mass starts at byte 32,
// not 28 as std430 would put it), half3 takes 8 (color at 40..48), and the struct is 64 bytes.
struct Particle {
    float3 pos;     // 0
    float3 vel;     // 16
    float mass;     // 32
    half3 color;    // 40
    uint id;        // 48
    float age;      // 52
};

struct World {
    float3 gravity; // 0
    float dt;       // 16
    float drag;     // 20
};

// Whole-struct load and store, float3 arithmetic.
kernel void particles_step(device Particle* ps [[buffer(0)]],
                           constant World& world [[buffer(1)]],
                           constant uint& count [[buffer(2)]],
                           uint i [[thread_position_in_grid]]) {
    if (i >= count)
        return;
    Particle p = ps[i];
    float3 acc = world.gravity - world.drag / p.mass * p.vel;
    p.vel += acc * world.dt;
    p.pos += p.vel * world.dt;
    p.age += world.dt;
    ps[i] = p;
}

// Member stores of 16-bit and 32-bit integer members: every other byte must stay as it was.
kernel void particles_tag(device Particle* ps [[buffer(0)]],
                          uint i [[thread_position_in_grid]]) {
    ps[i].color = ps[i].color.zxy;
    ps[i].id = ps[i].id * 3u + 1u;
}

// Member loads into plain arrays, a float3 array (16-byte elements) among them.
kernel void particles_gather(device const Particle* ps [[buffer(0)]],
                             device float3* vel_out [[buffer(1)]],
                             device float* energy [[buffer(2)]],
                             device uint* ids [[buffer(3)]],
                             device half4* colors [[buffer(4)]],
                             uint i [[thread_position_in_grid]]) {
    Particle p = ps[i];
    vel_out[i] = p.vel;
    energy[i] = 0.5f * p.mass * dot(p.vel, p.vel);
    ids[i] = ps[i].id;
    colors[i] = half4(ps[i].color, half(ps[i].age));
}
