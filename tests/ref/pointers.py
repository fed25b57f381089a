#!/usr/bin/python3
"""Reference for samples/pointers.metal: 4-bit block matvec through uchar/ushort pointers and a struct view,
float4 pointer casts in helpers, pointers chosen at run time, references, threadgroup and thread pointers."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng

ref = Reference("pointers.metal")
r = rng(47)


def q4_blocks(rows, nblocks):
    """rows x nblocks blocks of 18 bytes: half scale, 16 bytes of nibbles (low nibble: weight j, high: j + 16)."""
    scale = r.uniform(0.01, 0.2, (rows, nblocks)).astype(np.float16)
    q = r.integers(0, 16, (rows, nblocks, 32)).astype(np.uint8)
    nib = (q[:, :, :16] | (q[:, :, 16:] << 4)).astype(np.uint8)
    raw = np.zeros((rows, nblocks, 18), dtype=np.uint8)
    raw[:, :, 0:2] = scale.reshape(rows, nblocks, 1).view(np.uint8).reshape(rows, nblocks, 2)
    raw[:, :, 2:] = nib
    w = (q.astype(np.float32) - 8.0) * scale.astype(np.float32)[:, :, None]     # dequantized
    return raw.reshape(-1), w.reshape(rows, nblocks * 32)


def matvec(name, entry, rows, nblocks, tg):
    raw, w = q4_blocks(rows, nblocks)
    x = r.uniform(-1, 1, nblocks * 32).astype(np.float32)
    y = (w.astype(np.float64) @ x.astype(np.float64)).astype(np.float32)
    ref.case(name, entry, {0: raw, 1: x, 2: Out(y, tol={"rtol": 1e-4, "atol": 1e-4}), 3: Scalar("uint", nblocks)},
             threadgroup=tg, grid=rows)


def walk(name, threads, rows, cols, tg):
    m = r.uniform(-1, 1, (rows, cols)).astype(np.float32)
    acc0 = r.uniform(-1, 1, (threads, cols)).astype(np.float32)
    acc = acc0.copy()
    for t in range(threads):
        row = t  # both branches of the ternary pick row t
        a = acc[row].astype(np.float32)
        for i in range(rows):
            a[:cols - 2] = (a[:cols - 2] + m[i, :cols - 2]).astype(np.float32)
        a[0] *= np.float32(2.0)
        a[cols - 1] = -a[cols - 1]
        acc[row] = a
    info = np.full(threads, rows * cols, dtype=np.int32)
    ref.case(name, "pointer_walk", {0: InOut(acc0, acc, tol={"rtol": 1e-5, "atol": 1e-5}), 1: m, 2: Out(info),
                                    3: Scalar("uint", cols), 4: Scalar("uint", rows)}, threadgroup=tg, grid=threads)


def local(name, n, tg):
    x = r.uniform(-1, 1, n).astype(np.float32)
    g = x.reshape(-1, 64)
    y = np.zeros_like(g)
    for k in range(4):
        y += np.roll(g, -k, axis=1)
    ref.case(name, "local_pointers", {0: x, 1: Out(y.reshape(-1), tol={"rtol": 1e-5, "atol": 1e-5})},
             threadgroup=tg, grid=n)


def vector_rows(name, rows, ne0, tg):
    x = r.uniform(-1, 1, rows * ne0).astype(np.float32)
    y0 = r.uniform(-1, 1, rows * ne0).astype(np.float32)
    y = y0.copy().reshape(rows, ne0)
    xr = x.reshape(rows, ne0)
    n4 = ne0 // 4 * 4
    y[:, :n4] = xr[:, :n4] + np.tile(np.arange(1, 5, dtype=np.float32), ne0 // 4)
    y[:, ne0 - 1] = ne0 // 4
    ref.case(name, "vector_rows", {0: x, 1: InOut(y0, y.reshape(-1)), 2: Scalar("uint", ne0)}, threadgroup=tg, grid=rows)


matvec("q4_matvec_64x4", "q4_matvec", 64, 4, 32)
matvec("q4_matvec_100x7", "q4_matvec", 100, 7, 64)
matvec("q4_matvec_struct_64x4", "q4_matvec_struct", 64, 4, 32)
matvec("q4_matvec_struct_100x7", "q4_matvec_struct", 100, 7, 64)
walk("pointer_walk_cols12", 16, 5, 12, 8)        # 12 - 2 = two float4 and two floats per row
walk("pointer_walk_cols8", 12, 3, 8, 4)          # one float4 and two floats
walk("pointer_walk_cols10", 12, 3, 10, 4)        # rows 10 floats apart: half the float4s off 16-byte alignment
walk("pointer_walk_cols7", 9, 4, 7, 3)           # one float4 a row, at every offset modulo 4
local("local_pointers_1024", 1024, 64)
vector_rows("vector_rows_ne7", 9, 7, 4)           # rows 7 floats apart: float4 at every offset modulo 4
vector_rows("vector_rows_ne10", 6, 10, 3)
vector_rows("vector_rows_ne8", 6, 8, 3)             # aligned rows: the whole-vector branch

if __name__ == "__main__":
    raise SystemExit(ref.main())
