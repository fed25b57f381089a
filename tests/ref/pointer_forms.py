#!/usr/bin/python3
"""Reference for samples/pointer_forms.metal: arrays of pointers, nullptr operands, a local union. (The case where
the host binds src0 again for a missing operand, so that the kernel's pointer comparison finds them equal, is in
tests/python/test_pointers.py: the Python package binds one array given twice to one buffer.)"""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("pointer_forms.metal")
r = rng(113)
F32 = {"rtol": 1e-6, "atol": 1e-5}


def rows_of_pointers(groups=2, rows=6):
    n = 32 * groups
    src1 = r.uniform(-1, 1, rows * n + 8).astype(np.float32)
    starts = np.array([3 * n + 2, 5, n + 7, 2 * n], dtype=np.int64)      # in floats, any order, overlapping
    offs = (starts * 4).astype(np.uint64)
    res = sum((j + 1) * src1[starts[j]:starts[j] + n].astype(np.float64) for j in range(4)).reshape(groups, 32)
    lid = np.arange(32)
    dst = res[:, 31 - lid] - 2.0 * res
    ref.case("rows_of_pointers", "rows_of_pointers", {0: src1.view(np.int8), 1: offs, 2: Out(dst.reshape(-1).astype(np.float32), tol=F32)},
             threadgroup=32, grid=n, threadgroup_memory={0: 256})


def optional_operands(n=37):
    """Three distinct buffers: the mask and the sinks are given."""
    x = r.uniform(-1, 1, n).astype(np.float32)
    mask = r.uniform(-1, 1, n).astype(np.float32)
    sinks = r.uniform(-1, 1, 4).astype(np.float32)
    i = np.arange(n)
    v = x.astype(np.float64) + 2.0 * mask + sinks[i % 4] + sinks[0] + 0.25
    ref.case("optional_operands", "optional_operands",
             {0: x.view(np.int8), 1: mask.view(np.int8), 2: sinks.view(np.int8), 3: Out(v.astype(np.float32), tol=F32)},
             threadgroup=8, grid=n)


def local_union(n=50):
    bits = r.integers(0, 2**16, n).astype(np.uint16)
    h = ((bits & 0x83FF) | 0x3C00).astype(np.uint16).view(np.float16)
    ref.case("local_union", "local_union", {0: bits, 1: Out(h.astype(np.float32), tol={"rtol": 0, "atol": 0})},
             threadgroup=16, grid=n)


def chosen_blocks(rows=6, split=2):
    """block_u {half d, m (a union with half2 dm); uchar tag[2]; uchar qh[4] (byte 6); uchar qs[4]}: 16 bytes,
    2 per 36-byte row."""
    def buffer():
        data = bytearray(r.integers(0, 256, 36 * rows).astype(np.uint8).tobytes())
        vals = np.zeros((rows, 8), dtype=np.float64)
        for i in range(rows):
            for k in range(2):
                d, m = np.float16(r.uniform(-1, 1)), np.float16(r.uniform(-1, 1))
                tag = r.integers(0, 8, 2).astype(np.uint8)
                qh = r.integers(0, 256, 4).astype(np.uint8)
                qs = r.integers(0, 128, 4).astype(np.uint8)
                o = 36 * i + 16 * k
                data[o:o + 14] = np.array([d, m], dtype="<f2").tobytes() + tag.tobytes() + qh.tobytes() + qs.tobytes()
                hi = int(np.frombuffer(qh.tobytes(), dtype="<u4")[0])
                for j in range(4):
                    vals[i, 4 * k + j] = float(d) * float(int(qs[j]) + ((hi >> (8 * j + int(tag[1]))) & 1)) + float(m)
        return np.frombuffer(bytes(data), dtype=np.int8).copy(), vals
    a, va = buffer()
    b, vb = buffer()
    want = np.where(np.arange(rows)[:, None] >= split, vb, va).astype(np.float32)
    ref.case("chosen_blocks", "chosen_blocks", {0: a, 1: b, 2: Scalar("uint", split), 3: Out(want.reshape(-1), tol=F32)},
             threadgroup=(4, 2), grid=(8, rows))


def chosen_rows(n=20, split=7):
    a = r.uniform(-1, 1, 4 * n + 8).astype(np.float32)
    b = r.uniform(-1, 1, 4 * n + 8).astype(np.float32)
    i = np.arange(n)
    row0 = np.where(i >= split, b[4 * i + 1], a[4 * i + 1])
    row1 = np.where(i + 1 >= split, b[4 * (i + 1) + 2], a[4 * (i + 1) + 2])
    y = row0.astype(np.float64) + 10.0 * row1
    ref.case("chosen_rows", "chosen_rows", {0: a.view(np.int8), 1: b.view(np.int8), 2: Scalar("uint", split),
                                            3: Out(y.astype(np.float32), tol=F32)}, threadgroup=8, grid=n)


def chosen_tiles(n=10, split=4):
    a = r.uniform(-1, 1, (16 * n + 8)).astype(np.float32)
    b = r.uniform(-1, 1, (16 * n + 8)).astype(np.float32)
    y = np.zeros(n, dtype=np.float64)
    for i in range(n):
        src = b if i >= split else a
        m = src[4 + 16 * i:4 + 16 * i + 16].reshape(4, 4)  # columns: m[c][r] at c * 4 + r
        y[i] = float(m[1, 2]) + 100.0 * float(m[3, 0])
    ref.case("chosen_tiles", "chosen_tiles", {0: a.view(np.int8), 1: b.view(np.int8), 2: Scalar("uint", split),
                                              3: Out(y.astype(np.float32), tol=F32)}, threadgroup=4, grid=n)


def moved_parameter(n=30):
    a = r.uniform(-1, 1, n).astype(np.float32)
    b = r.uniform(-1, 1, n).astype(np.float32)
    y = np.where(np.arange(n) % 2 == 1, b, a)
    ref.case("moved_parameter", "moved_parameter", {0: a, 1: b, 2: Out(y, tol={"rtol": 0, "atol": 0})},
             threadgroup=8, grid=n)


rows_of_pointers()
optional_operands()
chosen_blocks()
chosen_rows()
chosen_tiles()
moved_parameter()
local_union()

if __name__ == "__main__":
    raise SystemExit(ref.main())
