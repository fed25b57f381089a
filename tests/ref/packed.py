#!/usr/bin/python3
"""Reference for samples/packed.metal: packed vectors and bool in buffer memory, laid out as Metal lays them out.

Host data is built byte by byte with NumPy structured dtypes at Metal's offsets; padding bytes hold noise that
must survive. A bool byte other than 0 reads as true (Metal leaves other values undefined; mtl2glsl defines
them so), and a bool store writes 0 or 1."""
import numpy as np
from refcase import Bytes, InOut, Out, Reference, Scalar, rng

f32, f16 = np.float32, np.float16
# struct Frame { packed_float3 origin; float scale; packed_float3 axis; uint count; }: 0, 12, 16, 28; 32 bytes.
FRAME = np.dtype({"names": ["origin", "scale", "axis", "count"], "formats": [("<f4", 3), "<f4", ("<f4", 3), "<u4"],
                  "offsets": [0, 12, 16, 28], "itemsize": 32})
# struct Point { packed_float3 pos; float3 vel; bool live, hit; uchar bounces; half3 tint; packed_half3 glow;
#                bool2 seen; }: pos 0 (12 bytes), vel 16, live 32, hit 33, bounces 34, tint 40 (8 bytes),
# glow 48 (6 bytes), seen 54; 56 rounded up to float3's 16-byte alignment: 64 bytes.
POINT = np.dtype({"names": ["pos", "vel", "live", "hit", "bounces", "tint", "glow", "seen"],
                  "formats": [("<f4", 3), ("<f4", 3), "u1", "u1", "u1", ("<f2", 3), ("<f2", 3), ("u1", 2)],
                  "offsets": [0, 16, 32, 33, 34, 40, 48, 54], "itemsize": 64})
# struct Threshold { float t; bool below; }: 0, 4; 8 bytes.
THRESHOLD = np.dtype({"names": ["t", "below"], "formats": ["<f4", "u1"], "offsets": [0, 4], "itemsize": 8})
BOOL_BYTES = np.array([0, 1, 2, 255, 0, 1, 128], dtype=np.uint8)   # what a bool byte may hold: nonzero is true

ref = Reference("packed.metal")
r = rng(43)


def cloud_case(name, n, count, tg):
    pos = r.uniform(-10, 10, (n, 3)).astype(f32)            # packed_float3: 12-byte stride
    color = r.uniform(0, 1, (n, 4)).astype(f16)             # packed_half4: 8-byte stride
    frame = np.zeros((), dtype=FRAME)
    frame["origin"], frame["scale"], frame["axis"], frame["count"] = (0.5, -1.25, 2.0), 0.75, (0.25, -0.5, 1.0), count
    origin, axis = frame["origin"].astype(f32), frame["axis"].astype(f32)
    d = (pos - origin) * f32(frame["scale"])
    q = (d + np.cross(axis, d)).astype(f32)
    q[:, 1] += color[:, 3].astype(f32)
    out_init = r.uniform(-1, 1, (n, 3)).astype(f32)         # points past count are untouched
    out = out_init.copy()
    out[:count] = q[:count]
    weight_init = np.full(n, 3.5, dtype=f32)
    weight = weight_init.copy()
    w = (color[:, :3].astype(f32) * pos).sum(axis=1, dtype=f32) + (pos[:, 2] + d[:, 2]) * f32(0.5)
    weight[:count] = w[:count]
    tol = {"rtol": 1e-5, "atol": 1e-4}
    ref.case(name, "cloud_transform", {0: pos, 1: color, 2: Bytes(frame.tobytes()), 3: InOut(out_init, out, tol=tol),
                                       4: InOut(weight_init, weight, tol=tol)}, threadgroup=tg, grid=n)


def from_floats_case(name, m, tg):
    raw = r.uniform(-4, 4, 6 * m).astype(f32)
    v = raw.reshape(m, 2, 3)
    out = np.concatenate([v[:, 0, ::-1] + v[:, 1], v[:, 1, 2:3]], axis=1).astype(f32)
    ref.case(name, "cloud_from_floats", {0: raw, 1: Out(out)}, threadgroup=tg, grid=m)


def points(n):
    raw = r.integers(0, 256, (n, 64), dtype=np.uint8)       # noise in every padding byte
    p = raw.view(POINT).reshape(n)
    p["pos"] = r.integers(-64, 65, (n, 3)) / 8.0             # eighths and quarters: the arithmetic is exact
    p["vel"] = r.integers(-8, 9, (n, 3)) / 4.0
    p["live"] = r.choice(BOOL_BYTES, n)
    p["hit"] = r.choice(BOOL_BYTES, n)
    p["bounces"] = r.integers(0, 6, n)
    p["tint"] = r.uniform(0, 1, (n, 3))
    p["glow"] = r.uniform(0, 1, (n, 3))
    p["seen"] = r.choice(BOOL_BYTES, (n, 2))
    return raw


def step_case(name, n, tg):
    raw = points(n)
    out = raw.copy()
    p = out.view(POINT).reshape(n)
    dt, radius = f32(0.5), f32(6.0)
    live = p["live"] != 0
    moved = p["pos"] + p["vel"] * dt
    outside = (np.abs(moved) > radius).any(axis=1)
    p["pos"][live] = moved[live]
    flip = live & outside
    p["vel"][flip] = -p["vel"][flip]
    p["bounces"][flip] += 1
    p["hit"][live] = outside[live]
    p["glow"] = (p["glow"] * f16(2) + p["tint"]).astype(f16)
    p["seen"][:, 0] = live
    p["seen"][:, 1] = p["hit"] != 0
    ref.case(name, "points_step", {0: InOut(raw, out), 1: Scalar("float", 0.5), 2: Scalar("float", 6.0)},
             threadgroup=tg, grid=n)


def flag_case(name, n, tg):
    raw = points(n)
    out = raw.copy()
    p = out.view(POINT).reshape(n)
    live = (p["bounces"] < 3) & (p["hit"] == 0)
    p["live"] = live
    p["seen"][:, 1] = p["seen"][:, 1] == 0
    p["pos"][~live, 0] = 0.0
    ref.case(name, "points_flag", {0: InOut(raw, out)}, threadgroup=tg, grid=n)


def mask_case(name, n, tg, below_byte):
    x = r.normal(0, 1, n).astype(f32)
    keep = r.choice(BOOL_BYTES, n)
    th = np.zeros((), dtype=THRESHOLD)
    th["t"], th["below"] = 0.25, below_byte
    raw = bytearray(th.tobytes())
    raw[5:8] = bytes([0x5a, 0xc3, 0x99])                    # padding bytes of the constant struct
    m = (keep != 0) & ((x > f32(0.25)) != (below_byte != 0))
    ref.case(name, "mask_threshold", {0: x, 1: keep, 2: Out(m.astype(np.uint8)), 3: Out(np.where(m, x, f32(0))),
                                      4: Bytes(raw)}, threadgroup=tg, grid=n)


def vectors_case(name, n, tg):
    a = r.integers(0, 256, (n, 4), dtype=np.uint8)          # bool3: 4 bytes, the fourth is padding (noise)
    a[:, :3] = r.choice(BOOL_BYTES, (n, 3))
    b = r.choice(BOOL_BYTES, (n, 2))
    c_init = r.integers(0, 256, (n, 4), dtype=np.uint8)
    x, y = a[:, :3] != 0, b != 0
    c = c_init.copy()                                       # the fourth byte of each bool3 is not written
    c[:, 0] = (x[:, 0] & y[:, 1]) | x[:, 2]
    c[:, 1] = x[:, 1] | y[:, 0]
    c[:, 2] = ~x[:, 2]
    d = np.stack([y[:, 0], y[:, 1], x[:, 2], x[:, 1]], axis=1).astype(np.uint8)
    bits = (x[:, 0] | x[:, 1] << 1 | x[:, 2] << 2 | y[:, 0] << 3 | y[:, 1] << 4).astype(np.uint32)
    ref.case(name, "mask_vectors", {0: a, 1: b, 2: InOut(c_init, c), 3: Out(d), 4: Out(bits)}, threadgroup=tg, grid=n)


def centroid_case(name, groups):
    n = groups * 32
    pos = (r.integers(-24, 25, (n, 3)) / 8.0).astype(f32)   # eighths: sums and squares are exact
    g = pos.reshape(groups, 32, 3)
    near = (pos * pos).sum(axis=1) < 4.0
    centroid = (g.sum(axis=1) / f32(32)).astype(f32)
    count = near.reshape(groups, 32).sum(axis=1).astype(np.uint8)
    ref.case(name, "cloud_centroid", {0: pos, 1: Out(centroid), 2: InOut(np.zeros(1, np.uint8), np.array([near.any()], np.uint8)),
                                      3: Out(count)}, threadgroup=32, grid=n)


cloud_case("packed_cloud_1000_tg64", 1000, 900, 64)
from_floats_case("packed_from_floats_500_tg32", 500, 32)
step_case("packed_points_step_700_tg64", 700, 64)
flag_case("packed_points_flag_300_tg32", 300, 32)
mask_case("packed_mask_1000_tg64", 1000, 64, 0)
mask_case("packed_mask_below_500_tg32", 500, 32, 2)      # a bool byte of 2 in a constant struct reads as true
vectors_case("packed_mask_vectors_600_tg64", 600, 64)
centroid_case("packed_centroid_40_groups", 40)

if __name__ == "__main__":
    raise SystemExit(ref.main())
