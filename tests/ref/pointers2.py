#!/usr/bin/python3
"""Reference for samples/pointers2.metal: pointers whose buffer is chosen at run time (reads, stores, helpers)
and the other pointer forms of issue 4."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng

ref = Reference("pointers2.metal")
r = rng(53)
F32 = {"rtol": 1e-6, "atol": 1e-6}


def runtime_roots(name, n, split, tg):
    x = r.uniform(-1, 1, n + 8).astype(np.float32)
    w = r.uniform(-1, 1, n + 8).astype(np.float32)
    y = np.zeros(n, dtype=np.float32)
    for i in range(n):
        p = x[i] if i < split else w[1 + i]
        q = x[i] if i & 1 else w[i]
        acc = np.float32(0)
        for k in range(3):
            s = x if k % 2 == 0 else w
            acc = np.float32(acc + np.float32(np.float32(np.float32(s[i + k] + s[i + k + 1]) + s[i + k + 2]) + s[i + k + 3]))
        y[i] = np.float32(np.float32(p + np.float32(2) * q) + acc)
    ref.case(name, "runtime_roots", {0: x, 1: w, 2: Out(y, tol=F32), 3: Scalar("uint", split)},
             threadgroup=tg, grid=n)


def runtime_loop(name, n, tg):
    x = r.uniform(-1, 1, n + 8).astype(np.float32)
    w = r.uniform(-1, 1, n + 8).astype(np.float32)
    y = np.zeros(n, dtype=np.float32)

    def s4(a, j):
        return np.float32(np.float32(np.float32(a[j] + a[j + 1]) + a[j + 2]) + a[j + 3])
    for i in range(n):
        acc = np.float32(0)
        for src, off in ((x, 0), (w, 0), (x, 1)):
            acc = np.float32(np.float32(acc * np.float32(2)) + s4(src, off + i))
        y[i] = acc
    ref.case(name, "runtime_loop", {0: x, 1: w, 2: Out(y, tol=F32)}, threadgroup=tg, grid=n)


def runtime_store(name, n, tg):
    bufs0 = [r.uniform(-1, 1, 4 * n).astype(np.float32) for _ in range(3)]
    src = r.uniform(-1, 1, 4 * n).astype(np.float32)
    bufs = [b.copy() for b in bufs0]
    for i in range(n):
        o = bufs[i % 3]
        o[4 * i:4 * i + 4] = o[4 * i:4 * i + 4] * np.float32(2) + src[4 * i:4 * i + 4]
        o[4 * i + 3] += np.float32(i % 3)
        o[4 * i] -= np.float32(1)
    ref.case(name, "runtime_store", {0: InOut(bufs0[0], bufs[0], tol=F32), 1: InOut(bufs0[1], bufs[1], tol=F32),
                                     2: InOut(bufs0[2], bufs[2], tol=F32), 3: src}, threadgroup=tg, grid=n)


def runtime_rows(name, n, tg):
    x = r.uniform(-1, 1, 8 * n).astype(np.float32)
    w = r.uniform(-1, 1, 8 * n).astype(np.float32)
    y = np.zeros((n, 4), dtype=np.float32)
    for i in range(n):
        src = x if i & 1 else w
        y[i] = src[8 * i + 4:8 * i + 8] + (x if i > 3 else w)[i]
    ref.case(name, "runtime_rows", {0: x, 1: w, 2: Out(y.reshape(-1), tol=F32)}, threadgroup=tg, grid=n)


def rows_and_locals(name, rows, cols, tg):
    m = r.uniform(-1, 1, (rows, cols)).astype(np.float32)
    v = (np.arange(1, 9, dtype=np.float32)[None, :] * m[:, :8]).astype(np.float32)
    v[:, 4:8] *= np.float32(0.5)
    v[:, 1:3] *= np.float32(-1)
    y = (v.astype(np.float64) * m[:, 8:16].astype(np.float64)).sum(axis=1).astype(np.float32)
    ref.case(name, "rows_and_locals", {0: m.reshape(-1), 1: Out(y, tol={"rtol": 1e-5, "atol": 1e-5}),
                                       2: Scalar("uint", cols)}, threadgroup=tg, grid=rows)


def member_pointers(name, n, tg):
    """Particles as 8 floats: pos 0..2, padding 3, vel 4..5, mass 6, padding 7 (noise that must survive)."""
    p0 = r.uniform(-2, 2, (n, 8)).astype(np.float32)
    p = p0.copy()
    p[:, 4:6] = p[:, 4:6] * p[:, 6:7]
    p[:, 6] += np.float32(1)
    ref.case(name, "member_pointers", {0: InOut(p0.reshape(-1), p.reshape(-1), tol=F32)}, threadgroup=tg, grid=n)


def tile_views(name, groups):
    x = r.uniform(-1, 1, 128 * groups).astype(np.float32)
    g = x.reshape(groups, 32, 4)
    pairs = np.stack([g[:, :, 0] + g[:, :, 1], g[:, :, 2] * g[:, :, 3]], axis=2).reshape(groups, 64)
    lid = np.arange(128)
    y = pairs[:, (lid * 5) % 64] + x.reshape(groups, 128)[:, 127 - lid]
    ref.case(name, "tile_views", {0: x, 1: Out(y.reshape(-1).astype(np.float32), tol=F32)}, threadgroup=128,
             grid=128 * groups)


runtime_roots("runtime_roots_100", 100, 37, 32)
runtime_loop("runtime_loop_70", 70, 32)
runtime_store("runtime_store_90", 90, 16)
runtime_rows("runtime_rows_45", 45, 16)
rows_and_locals("rows_and_locals_50x20", 50, 20, 16)
member_pointers("member_pointers_77", 77, 32)
tile_views("tile_views_4", 4)

if __name__ == "__main__":
    raise SystemExit(ref.main())
