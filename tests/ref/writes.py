#!/usr/bin/python3
"""Reference for samples/writes.metal: writes through thread-array parameters and device references."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng

ref = Reference("writes.metal")
r = rng(1313)


def strided_case(name, shape, perm, tg):
    """output (contiguous, row-major of the permuted shape) = base.transpose(perm), with c10's innermost-first
    sizes and element strides of the transposed view."""
    base = r.standard_normal(shape).astype(np.float32)
    view = base.transpose(perm)
    sizes = np.array(view.shape[::-1], dtype=np.int64)
    strides = np.array([s // 4 for s in view.strides[::-1]], dtype=np.int64)
    expected = np.ascontiguousarray(view).reshape(-1)
    ref.case(name, "strided_copy", {0: Out(expected, tol={"rtol": 0, "atol": 0}), 1: base.reshape(-1), 2: sizes,
                                    3: strides, 4: Scalar("uint", len(shape))}, threadgroup=tg, grid=expected.size)


def coords_case(name, shape, tg):
    n = int(np.prod(shape))
    sizes = np.array(shape[::-1], dtype=np.int64)        # innermost first
    idx = np.arange(n)
    pos = np.full((n, 4), -1, dtype=np.int32)
    inner = []
    for s in sizes:                                       # pos_from_thread_index
        inner.append(idx % s)
        idx = idx // s
    inner = inner[::-1]                                   # coords_reversed: outermost first
    pos[:, :len(shape)] = np.stack(inner, axis=1)
    ref.case(name, "coords", {0: Out(pos), 1: sizes, 2: Scalar("uint", len(shape))}, threadgroup=tg, grid=n)


# struct Particle { float3 pos; float3 vel; float mass; }: pos 0, vel 16, mass 32; 48 bytes (16-aligned)
PARTICLE = np.dtype({"names": ["pos", "vel", "mass"], "formats": [("<f4", 3), ("<f4", 3), "<f4"],
                     "offsets": [0, 16, 32], "itemsize": 48})


def nudge_case(name, n, tg):
    raw = r.uniform(-100, 100, (n, 12)).astype(np.float32)   # padding holds values that must survive
    p = raw.view(PARTICLE).reshape(n)
    dt = 0.25
    out = raw.copy()
    q = out.view(PARTICLE).reshape(n)
    q["pos"] = p["pos"] + p["vel"] * np.float32(dt)
    q["mass"] = p["mass"] * np.float32(2)
    ref.case(name, "particles_nudge", {0: InOut(raw, out, tol={"rtol": 1e-6, "atol": 1e-5}), 1: Scalar("float", dt)},
             threadgroup=tg, grid=n)


def scale_case(name, n, tg):
    x = r.standard_normal(n).astype(np.float32)
    ref.case(name, "scale_through_ref", {0: InOut(x, x * np.float32(-1.5)), 1: Scalar("float", -1.5)},
             threadgroup=tg, grid=n)


def negate_case(name, entry, x, tg):
    ref.case(name, entry, {0: InOut(x, -x)}, threadgroup=tg, grid=x.size)


def row_sums_case(name, rows, cols, tg):
    x = r.standard_normal((rows, cols)).astype(np.float32)
    expected = x.astype(np.float64).sum(axis=1).astype(np.float32)
    ref.case(name, "row_sums", {0: x, 1: Out(expected, tol={"rtol": 1e-5, "atol": 1e-5}), 2: Scalar("uint", cols)},
             threadgroup=tg, grid=rows)


strided_case("writes_strided_copy_3d", (5, 7, 9), (2, 0, 1), 64)
strided_case("writes_strided_copy_4d", (3, 4, 5, 6), (3, 1, 0, 2), 32)
coords_case("writes_coords_3d", (3, 5, 7), 32)
nudge_case("writes_particles_nudge", 300, 64)
scale_case("writes_scale_through_ref", 1000, 64)
negate_case("writes_negate_float", "negate_float", r.standard_normal(500).astype(np.float32), 64)
row_sums_case("writes_row_sums", 300, 29, 64)
negate_case("writes_negate_int", "negate_int", r.integers(-1000, 1000, 500).astype(np.int32), 64)

if __name__ == "__main__":
    raise SystemExit(ref.main())
