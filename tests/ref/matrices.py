#!/usr/bin/python3
"""Reference for samples/matrices.metal: float/half matrices in buffers (Metal's column-major layout, float3
columns of 16 bytes, half3 columns of 8), in push constants, thread and threadgroup memory, and their operators.

NumPy's matrices are row-major: host data is built in Metal's layout explicitly, as an array [column][row]
(`cols`), and the mathematical matrix is its transpose (`mat`). Padding slots of 3-row columns hold NaN or
noise: a kernel that read them, or a layout that put a column elsewhere, fails."""
import numpy as np
from refcase import Bytes, InOut, Out, Reference, Scalar, rng

ref = Reference("matrices.metal")
r = rng(53)
f32, f16 = np.float32, np.float16
TOL = {"rtol": 1e-5, "atol": 1e-5}
HALF_TOL = {"rtol": 4e-3, "atol": 4e-3}


def metal_cols(m, rows_stored, dtype, pad=np.nan):
    """Mathematical matrices m[..., R, C] -> Metal's bytes as [..., C, rows_stored] (padding rows = pad)."""
    m = np.asarray(m)
    rows = m.shape[-2]
    out = np.full(m.shape[:-2] + (m.shape[-1], rows_stored), pad, dtype=dtype)
    out[..., :rows] = np.swapaxes(m, -1, -2)
    return out


def to_cols(m, rows_stored, dtype):
    """Expected output matrices: [..., C, rows_stored] with padding rows left to the caller."""
    return np.swapaxes(np.asarray(m), -1, -2).astype(dtype)


# struct Frame { float scale; float3x3 normal; float2x2 uv; half3x3 tint; float bias; float2x3 bones[2]; }
# Metal: scale 0, normal 16 (48 bytes), uv 64 (16), tint 80 (24: half3 columns of 8 bytes), bias 104,
# bones 112 (2 x 32: float3 columns of 16 bytes); size 176.
FRAME = np.dtype({"names": ["scale", "normal", "uv", "tint", "bias", "bones"],
                  "formats": ["<f4", ("<f4", (3, 4)), ("<f4", (2, 2)), ("<f2", (3, 4)), "<f4", ("<f4", (2, 2, 4))],
                  "offsets": [0, 16, 64, 80, 104, 112], "itemsize": 176})


def transform_case(name, n, per_instance, tg):
    ninst = (n + per_instance - 1) // per_instance
    pts = r.uniform(-2, 2, (n, 4)).astype(f32)
    mats = r.uniform(-1, 1, (ninst, 4, 4)).astype(f32)                 # mathematical [row][col]
    raw = np.frombuffer(r.integers(0, 256, 176, dtype=np.uint8).tobytes(), dtype=FRAME).copy()
    frame = raw[0]
    normal = r.uniform(-1, 1, (3, 3)).astype(f32)
    uv = r.uniform(-1, 1, (2, 2)).astype(f32)
    tint = r.uniform(-1, 1, (3, 3)).astype(f16)
    bones = r.uniform(-1, 1, (2, 3, 2)).astype(f32)                    # two float2x3: 3 rows, 2 columns
    frame["scale"], frame["bias"] = 1.5, -0.25
    frame["normal"] = metal_cols(normal, 4, f32)                        # NaN in each column's fourth float
    frame["uv"] = metal_cols(uv, 2, f32)
    frame["tint"] = metal_cols(tint, 4, f16)
    frame["bones"] = metal_cols(bones, 4, f32)
    inst = np.arange(n) // per_instance
    pos = (np.einsum("nrc,nc->nr", mats[inst].astype(np.float64), pts) * 1.5 - 0.25).astype(f32)
    nrm_init = np.full((n, 4), 7.5, dtype=f32)                          # the 4th float of each float3 is not written
    nrm = nrm_init.copy()
    nrm[:, :3] = pts[:, :3].astype(np.float64) @ normal.T.astype(np.float64)
    nrm[:, :2] += pts[:, :2].astype(np.float64) @ uv.T.astype(np.float64)
    nrm[:, :3] += np.einsum("nrc,nc->nr", bones[np.arange(n) % 2].astype(np.float64), pts[:, 2:].astype(np.float64))
    tint_init = np.full((n, 4), 3.0, dtype=f16)
    tint_out = tint_init.copy()
    tint_out[:, :3] = pts[:, :3].astype(f16).astype(np.float64) @ tint.T.astype(np.float64)
    ref.case(name, "transform_points",
             {0: pts, 1: metal_cols(mats, 4, f32), 2: Bytes(raw.tobytes()), 3: Out(pos, tol=TOL),
              4: InOut(nrm_init, nrm, tol=TOL), 5: InOut(tint_init, tint_out, tol=HALF_TOL),
              6: Scalar("uint", per_instance)}, threadgroup=tg, grid=n)


def project_case(name, n, tg):
    pts = r.uniform(-2, 2, (n, 4)).astype(f32)
    view = r.uniform(-1, 1, (4, 4)).astype(f32)                        # mathematical
    cols = metal_cols(view, 4, f32)                                      # view[c] is column c
    col = (pts.astype(np.float64) @ view.T.astype(np.float64)).astype(f32)
    row = pts.astype(np.float64) @ view.astype(np.float64)              # row vector p times view
    k = np.arange(n) % 4
    row = (row + cols[k] + cols[3, k][:, None]).astype(f32)
    ref.case(name, "project", {0: pts, 1: Bytes(cols.tobytes()), 2: Out(col, tol=TOL), 3: Out(row, tol=TOL)},
             threadgroup=tg, grid=n)


def shapes_case(name, n, tg):
    A = r.uniform(-1, 1, (n, 3, 2)).astype(f32)                        # float2x3: 3 rows, 2 columns
    B = r.uniform(-1, 1, (n, 2, 3)).astype(f32)                        # float3x2: 2 rows, 3 columns
    A64, B64 = A.astype(np.float64), B.astype(np.float64)
    P = A64 @ B64                                                        # 3x3 (rank 2: determinant ~0)
    Q = B64 @ A64                                                        # 2x2
    ab_init = np.full((n, 3, 4), -5.0, dtype=f32)
    ab = ab_init.copy()
    ab[:, :, :3] = to_cols(P, 3, f32)
    dets = np.stack([np.linalg.det(P), np.linalg.det(Q), np.linalg.det(Q), np.full(n, 8.0)], axis=1).astype(f32)
    w = np.einsum("nrc,nc->nr", A64, B64[:, :, 0])                       # a * b[0]
    rv = np.einsum("nrc,nr->nc", A64, w)                                 # w * a
    vecs = np.stack([w[:, 2], w[:, 1], rv[:, 1], rv[:, 0]], axis=1) + \
        np.stack([A64[:, 0, 1], A64[:, 2, 1], B64[:, 1, 2], B64[:, 0, 2]], axis=1)
    ref.case(name, "shapes",
             {0: metal_cols(A, 4, f32), 1: metal_cols(B, 2, f32), 2: InOut(ab_init, ab, tol=TOL),
              3: Out(to_cols(Q, 2, f32), tol=TOL), 4: Out(to_cols(np.swapaxes(A64, 1, 2) - B64, 2, f32), tol=TOL),
              5: Out(dets, tol={"rtol": 1e-4, "atol": 1e-5}), 6: Out(vecs.astype(f32), tol=TOL)},
             threadgroup=tg, grid=n)


def build_case(name, n, tg):
    v = r.uniform(-3, 3, (2 * n, 4)).astype(f32)
    a, b = v[0::2].astype(np.float64), v[1::2].astype(np.float64)
    cols = np.stack([a, b, a[:, ::-1], b[:, [1, 0, 3, 2]]], axis=1)      # float4x4(a, b, a.wzyx, b.yxwz)
    cols = (cols * 2.0 - np.eye(4)) * 0.25                              # *= 2I, += 0, -= I, *= 0.25
    cols[:, 3] = np.stack([np.arange(n), np.ones(n), np.full(n, 2.0), np.full(n, 3.0)], axis=1)
    cols[:, 2, 1] = -7.0
    cols[:, 1, 2:] = a[:, :2]
    cols[:, 0, 3] = b[:, 0]
    s = np.arange(1, 13, dtype=np.float64).reshape(3, 4)                 # float3x4(1, ..., 12): columns of 4
    out34 = s[None] * (a[:, 0] + 1.0)[:, None, None]
    ref.case(name, "build", {0: v, 1: Out(cols.astype(f32), tol=TOL), 2: Out(out34.astype(f32), tol=TOL)},
             threadgroup=tg, grid=n)


def accumulate_case(name, n, k, tg):
    xs = r.uniform(-1, 1, (n * k, 4)).astype(f32)
    ys = r.uniform(-1, 1, (n * k, 4)).astype(f32)
    xs[:, 3], ys[:, 3] = np.nan, np.nan                                  # float3's padding
    x = xs[:, :3].astype(np.float64).reshape(n, k, 3)
    y = ys[:, :3].astype(np.float64).reshape(n, k, 3)
    M = np.einsum("nkr,nkc->nrc", x, y)                                  # sum of outer products
    init = np.full((n, 3, 4), 9.0, dtype=f32)
    out = init.copy()
    out[:, :, :3] = to_cols(M, 3, f32)
    ref.case(name, "accumulate", {0: xs, 1: ys, 2: InOut(init, out, tol=TOL), 3: Scalar("uint", k)},
             threadgroup=tg, grid=n)


def half_case(name, n, tg):
    pts = r.uniform(-1, 1, (n, 2)).astype(f16)
    ang = r.uniform(-3, 3, n).astype(f32)
    H = r.uniform(-1, 1, (n, 3, 3)).astype(f16)
    c, s = np.cos(ang).astype(f16).astype(np.float64), np.sin(ang).astype(f16).astype(np.float64)
    p = pts.astype(np.float64)
    rot = np.stack([c * p[:, 0] - s * p[:, 1], s * p[:, 0] + c * p[:, 1]], axis=1).astype(f16)
    h64 = H.astype(np.float64)
    p3 = np.concatenate([p, np.ones((n, 1))], axis=1)
    o3 = np.einsum("nrc,nc->nr", h64, p3) + 0.5 * h64[:, :, 0]
    init = np.full((n, 4), -2.0, dtype=f16)
    out3 = init.copy()
    out3[:, :3] = o3
    ref.case(name, "half_rotate", {0: pts, 1: ang, 2: metal_cols(H, 4, f16), 3: Out(rot, tol=HALF_TOL),
                                   4: InOut(init, out3, tol=HALF_TOL)}, threadgroup=tg, grid=n)


def tg_case(name, groups):
    elems = r.uniform(-1, 1, groups * 16).astype(f32)
    M = np.swapaxes(elems.reshape(groups, 4, 4), 1, 2).astype(np.float64)   # elems are columns of 4
    n = groups * 16
    g = np.arange(n) // 16
    pts = r.uniform(-1, 1, (n, 4)).astype(f32)
    p = pts.astype(np.float64)
    out = np.einsum("nrc,nc->nr", M[g] + np.swapaxes(M[g], 1, 2), p)
    n3 = M[g][:, :3, :3]
    r3 = np.einsum("nrc,nc->nr", n3 @ n3, p[:, :3]).sum(axis=1)
    h2 = M[g][:, :2, :2].astype(f16).astype(np.float64)
    r2 = np.einsum("nrc,nc->nr", h2 @ h2, p[:, :2].astype(f16).astype(np.float64)).sum(axis=1)
    ref.case(name, "tg_matrix", {0: elems, 1: pts, 2: Out(out.astype(f32), tol=TOL), 3: Out(r3.astype(f32), tol=TOL),
                                 4: Out(r2.astype(f16), tol={"rtol": 1e-2, "atol": 1e-2})},
             threadgroup=16, grid=n)


def apply_case(name, entry, n, c, dtype, tol, tg):
    mats = r.uniform(-1, 1, (n, c, c)).astype(dtype)                   # mathematical
    vs = r.uniform(-1, 1, (n, c)).astype(dtype)
    out = np.einsum("nrc,nc->nr", mats.astype(np.float64), vs.astype(np.float64)) + 0.75
    ref.case(name, entry, {0: metal_cols(mats, c, dtype), 1: vs, 2: Out(out.astype(dtype), tol=tol)},
             threadgroup=tg, grid=n)


transform_case("matrices_transform_500_tg64", 500, 7, 64)
transform_case("matrices_transform_33_tg32", 33, 4, 32)
project_case("matrices_project_100_tg32", 100, 32)
shapes_case("matrices_shapes_300_tg64", 300, 64)
build_case("matrices_build_77_tg32", 77, 32)
accumulate_case("matrices_accumulate_90x5_tg32", 90, 5, 32)
half_case("matrices_half_200_tg64", 200, 64)
tg_case("matrices_threadgroup_8_groups", 8)
apply_case("matrices_apply_float4x4_150_tg32", "apply_float4x4", 150, 4, f32, TOL, 32)
apply_case("matrices_apply_half2x2_150_tg32", "apply_half2x2", 150, 2, f16, HALF_TOL, 32)

if __name__ == "__main__":
    raise SystemExit(ref.main())
