#!/usr/bin/python3
"""Reference for samples/particles.metal: a struct array with float3/half3 members in Metal's layout."""
import numpy as np
from refcase import Bytes, InOut, Out, Reference, Scalar, rng

# struct Particle { float3 pos; float3 vel; float mass; half3 color; uint id; float age; }
# Metal: pos 0, vel 16, mass 32, color 40 (half3: 8 bytes), id 48, age 52; size 64 (16-aligned).
PARTICLE = np.dtype({"names": ["pos", "vel", "mass", "color", "id", "age"],
                     "formats": [("<f4", 3), ("<f4", 3), "<f4", ("<f2", 3), "<u4", "<f4"],
                     "offsets": [0, 16, 32, 40, 48, 52], "itemsize": 64})
# struct World { float3 gravity; float dt; float drag; }: gravity 0, dt 16, drag 20; size 32.
WORLD = np.dtype({"names": ["gravity", "dt", "drag"], "formats": [("<f4", 3), "<f4", "<f4"],
                  "offsets": [0, 16, 20], "itemsize": 32})

ref = Reference("particles.metal")
r = rng(41)


def particles(n, float_noise=False):
    # padding bytes hold noise that must survive; finite float noise where the buffer is compared as floats
    if float_noise:
        raw = r.uniform(-100, 100, (n, 16)).astype(np.float32).view(np.uint8).reshape(n, 64)
    else:
        raw = r.integers(0, 256, (n, 64), dtype=np.uint8)
    p = raw.view(PARTICLE).reshape(n)
    p["pos"] = r.uniform(-10, 10, (n, 3))
    p["vel"] = r.uniform(-2, 2, (n, 3))
    p["mass"] = r.uniform(0.5, 4, n)
    p["color"] = r.uniform(0, 1, (n, 3))
    p["id"] = r.integers(0, 1 << 30, n)
    p["age"] = r.uniform(0, 8, n)
    return raw


def step_case(name, n, count, tg):
    raw = particles(n, float_noise=True)
    p = raw.view(PARTICLE).reshape(n)
    w = np.zeros((), dtype=WORLD)
    w["gravity"], w["dt"], w["drag"] = (0.0, -9.75, 0.5), 0.125, 0.25
    out = raw.copy().view(PARTICLE).reshape(n)
    q = out[:count]
    f32 = np.float32
    acc = w["gravity"].astype(f32) - (f32(w["drag"]) / q["mass"])[:, None] * q["vel"]
    q["vel"] = q["vel"] + acc * f32(w["dt"])
    q["pos"] = q["pos"] + q["vel"] * f32(w["dt"])
    q["age"] = q["age"] + f32(w["dt"])
    # compared as float32 words: pos/vel/mass/age columns within 1e-5, the rest unchanged
    ref.case(name, "particles_step", {0: InOut(raw.view(np.float32).reshape(n, 16), out.view(np.float32).reshape(n, 16),
                                               tol={"rtol": 1e-5, "atol": 1e-5}),
                                      1: Bytes(w.tobytes()), 2: Scalar("uint", count)}, threadgroup=tg, grid=n)


def tag_case(name, n, tg):
    raw = particles(n)
    out = raw.copy()
    p = out.view(PARTICLE).reshape(n)
    p["color"] = p["color"][:, [2, 0, 1]]
    p["id"] = p["id"] * np.uint32(3) + np.uint32(1)
    ref.case(name, "particles_tag", {0: InOut(raw, out)}, threadgroup=tg, grid=n)


def gather_case(name, n, tg):
    raw = particles(n)
    p = raw.view(PARTICLE).reshape(n)
    vel_init = np.full((n, 4), 7.5, dtype=np.float32)    # the 4th float of each float3 is not written
    vel = vel_init.copy()
    vel[:, :3] = p["vel"]
    energy = (np.float32(0.5) * p["mass"] * (p["vel"] * p["vel"]).sum(axis=1, dtype=np.float32)).astype(np.float32)
    colors = np.concatenate([p["color"], p["age"].astype(np.float16)[:, None]], axis=1).astype(np.float16)
    ref.case(name, "particles_gather", {0: raw, 1: InOut(vel_init, vel), 2: Out(energy, tol={"rtol": 1e-5, "atol": 1e-5}),
                                        3: Out(p["id"].copy()), 4: Out(colors, tol={"rtol": 1e-3, "atol": 1e-3})},
             threadgroup=tg, grid=n)


step_case("particles_step_1000_tg64", 1000, 1000, 64)
step_case("particles_step_count_tg32", 300, 250, 32)       # particles past count are untouched
tag_case("particles_tag_500_tg64", 500, 64)
gather_case("particles_gather_777_tg64", 777, 64)

if __name__ == "__main__":
    raise SystemExit(ref.main())
