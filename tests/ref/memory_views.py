#!/usr/bin/python3
"""Reference for samples/memory_views.metal: thread and threadgroup memory read and written through pointers of
other types (bytes of a uint, ushort halves of a uint, a constant table's bytes, threadgroup bytes used as float,
int, half4, half, float4, ulong, uchar, uint). The byte-level results are computed from the values' bits here."""
import numpy as np
from refcase import Out, Reference, rng

ref = Reference("memory_views.metal")
r = rng(97)
EXACT = {"rtol": 0, "atol": 0}
GRID_TAB = np.array([0x04030201, 0x08070605, 0x0c0b0a09, 0x100f0e0d], dtype=np.uint32)


def byte(v, k):
    return (int(v) >> (8 * k)) & 0xFF


def thread_bytes(n=40):
    x = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    y = np.zeros(n, dtype=np.float64)
    for i in range(n):
        v = int(x[i])
        ints = byte(v, 0) + 2 * byte(v, 3) + byte(v, 1) + 3 * byte(v, 2)
        scales32 = ((i & 0xFFFF) << 16) | 7
        ints += np.int8(np.uint8(byte(scales32, 0))) + np.int8(np.uint8(byte(scales32, 2)))
        ints += byte(int(GRID_TAB[i % 4]), 1)
        t = np.float32((np.float32(i) - np.float32(8)) * np.float32(0.1))
        c, s = np.cos(np.float64(t)), np.sin(np.float64(t))
        if t < 0:
            s = -s
        y[i] = float(ints) + c + s
    ref.case("thread_bytes", "thread_bytes", {0: x, 1: Out(y.astype(np.float32), tol={"rtol": 1e-6, "atol": 2e-5})},
             threadgroup=8, grid=n)


def tg_as_float(groups=3):
    x = r.uniform(-1, 1, 32 * groups).astype(np.float32)
    y = x.reshape(groups, 32)[:, ::-1].reshape(-1)
    ref.case("tg_as_float", "tg_as_float", {0: x, 1: Out(y, tol=EXACT)}, threadgroup=32, grid=32 * groups,
             threadgroup_memory={0: 128})


def tg_mixed(groups=3):
    x = r.uniform(-4, 4, 32 * groups).astype(np.float32)
    g = x.reshape(groups, 32)
    lid = np.arange(32)
    h_lane = g.astype(np.float16).astype(np.float64)               # h[4 * m]: half(x) of lane m
    y = (g[:, 31 - lid].astype(np.float64) + 3.0 * ((lid + 1) % 32) + lid + h_lane[:, (lid + 5) % 32]
         + 2.0 * g.astype(np.float64))
    ref.case("tg_mixed", "tg_mixed", {0: x, 1: Out(y.reshape(-1).astype(np.float32), tol={"rtol": 1e-6, "atol": 1e-5})},
             threadgroup=32, grid=32 * groups, threadgroup_memory={0: 1024})


def tg_bytes(groups=2):
    x = r.integers(0, 2**63, 32 * groups, dtype=np.uint64)
    y = np.zeros(32 * groups, dtype=np.uint32)
    for gi in range(groups):
        for lid in range(32):
            v = int(x[32 * gi + (lid + 3) % 32])
            y[32 * gi + lid] = byte(v, 0) + byte(v, 5) * 256 + (((31 - lid) * 7) & 0xFF) * 65536
    ref.case("tg_bytes", "tg_bytes", {0: x, 1: Out(y, tol=EXACT)}, threadgroup=32, grid=32 * groups)


def tg_halves(groups=2):
    x = r.uniform(-8, 8, 32 * groups).astype(np.float32)
    hs = np.zeros((groups, 64), dtype=np.float16)
    hs[:, 0::2] = x.reshape(groups, 32).astype(np.float16)
    hs[:, 1::2] = (-hs[:, 0::2]) * np.float16(0.5)
    words = hs.view(np.uint32)                                       # [groups, 32]: two halves' bits, little-endian
    lid = np.arange(32)
    bits = words[:, (lid + 1) % 32].reshape(-1)
    y = (hs[:, 2 * ((lid + 2) % 32) + 1].astype(np.float32) + hs[:, 63 - lid].astype(np.float32)).reshape(-1)
    ref.case("tg_halves", "tg_halves", {0: x, 1: Out(bits.astype(np.uint32), tol=EXACT), 2: Out(y, tol=EXACT)},
             threadgroup=32, grid=32 * groups)


def tg_matrix(groups=2):
    x = r.uniform(-4, 4, 8 * 32 * groups).astype(np.float16)
    t = x.reshape(groups, 32, 8).copy()
    t[:, :, 5] = -t[:, :, 5]                                         # h[8 * lid + 5] negated in place
    lid = np.arange(32)
    a = t[:, 31 - lid, :]                                            # half2x4: column 0 = [0:4], column 1 = [4:8]
    y = (a[:, :, 1].astype(np.float64) + 4.0 * a[:, :, 5].astype(np.float64)).reshape(-1)
    words = t.reshape(groups, 32 * 8).view(np.uint32).reshape(groups, 32, 4)
    bits = words[:, (lid + 3) % 32, 2].reshape(-1)
    ref.case("tg_matrix", "tg_matrix", {0: x, 1: Out(y.astype(np.float32), tol=EXACT), 2: Out(bits.astype(np.uint32), tol=EXACT)},
             threadgroup=32, grid=32 * groups)


thread_bytes()
tg_as_float()
tg_mixed()
tg_bytes()
tg_halves()
tg_matrix()

if __name__ == "__main__":
    raise SystemExit(ref.main())
