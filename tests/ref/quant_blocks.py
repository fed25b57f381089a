#!/usr/bin/python3
"""Reference for samples/quant_blocks.metal: ggml's quantized blocks (q4_0, q4_1, q5_0, q8_0) gathered, multiplied
and written through byte pointers. The blocks are built and dequantized here from ggml's block formats; rows are
padded so that blocks start at byte offsets that are not multiples of their size."""
import numpy as np
from refcase import Bytes, InOut, Out, Reference, rng

ref = Reference("quant_blocks.metal")
r = rng(71)
EXACT = {"rtol": 0, "atol": 0}

GET_ROWS_ARGS = np.dtype({"names": ["ne00", "nb01", "nb1", "nb10"], "formats": ["<i4", "<u8", "<u8", "<u8"],
                          "offsets": [0, 8, 16, 24], "itemsize": 32})
MV_ARGS = np.dtype({"names": ["nblocks", "nb01"], "formats": ["<i4", "<u8"], "offsets": [0, 8], "itemsize": 16})

BLOCK_BYTES = {"q4_0": 18, "q4_1": 20, "q5_0": 22, "q8_0": 34}


def half_bytes(v):
    return np.asarray(v, dtype="<f2").tobytes()


def random_block(kind):
    """(bytes of one block, its 32 weights as float32) for ggml's layout of KIND."""
    d = np.float16(r.uniform(0.01, 0.2) * r.choice([-1, 1]))
    if kind == "q8_0":
        q = r.integers(-128, 128, 32).astype(np.int8)
        return half_bytes(d) + q.tobytes(), (q.astype(np.float32) * np.float32(d))
    qs = r.integers(0, 256, 16).astype(np.uint8)
    lo, hi = (qs & 0x0F).astype(np.int32), (qs >> 4).astype(np.int32)
    if kind == "q4_0":
        w = np.concatenate([lo, hi]) - 8
        return half_bytes(d) + qs.tobytes(), w.astype(np.float32) * np.float32(d)
    if kind == "q4_1":
        m = np.float16(r.uniform(-1, 1))
        w = np.concatenate([lo, hi]).astype(np.float32)
        return half_bytes(d) + half_bytes(m) + qs.tobytes(), (np.float32(d) * w + np.float32(m)).astype(np.float32)
    qh = np.uint32(r.integers(0, 2**32))
    bits = (int(qh) >> np.arange(32)) & 1
    w = np.concatenate([lo, hi]) | (bits << 4)
    return half_bytes(d) + np.uint32(qh).tobytes() + qs.tobytes(), (w - 16).astype(np.float32) * np.float32(d)


def quantized_rows(kind, rows, nblocks, stride):
    """Rows of NBLOCKS blocks STRIDE bytes apart (the padding is noise): (bytes as uint8, weights [rows, 32*nblocks])."""
    data = bytearray(r.integers(0, 256, rows * stride).astype(np.uint8).tobytes())
    weights = np.zeros((rows, 32 * nblocks), dtype=np.float32)
    for i in range(rows):
        for b in range(nblocks):
            blk, w = random_block(kind)
            o = i * stride + b * BLOCK_BYTES[kind]
            data[o:o + len(blk)] = blk
            weights[i, 32 * b:32 * b + 32] = w
    return np.frombuffer(bytes(data), dtype=np.uint8).copy(), weights


def get_rows(kind, stride, gathered=5, rows=9, nblocks=3, tg=4):
    ne00 = 32 * nblocks
    assert stride % BLOCK_BYTES[kind] and stride % 4 == 0
    src0, weights = quantized_rows(kind, rows, nblocks, stride)
    idx = r.integers(0, rows, 2 * gathered).astype(np.int32)        # row indices 8 bytes apart: every other int32
    nb1 = 4 * ne00 + 16                                              # output rows: a float4x4 at 16 mod 64 bytes
    dst0 = r.uniform(-9, 9, gathered * nb1 // 4).astype(np.float32)
    dst = dst0.copy().reshape(gathered, nb1 // 4)
    dst[:, :ne00] = weights[idx[0::2]]
    args = np.zeros((), dtype=GET_ROWS_ARGS)
    args["ne00"], args["nb01"], args["nb1"], args["nb10"] = ne00, stride, nb1, 8
    tol = {"rtol": 1e-6, "atol": 1e-6} if kind == "q4_1" else EXACT
    ref.case("get_rows_%s" % kind, "get_rows_%s" % kind,
             {0: Bytes(args.tobytes()), 1: src0, 2: idx, 3: InOut(dst0, dst.reshape(-1), tol=tol)},
             threadgroup=tg, threadgroups=gathered)


def mul_mv(kind, stride, rows=7, nblocks=3, tg=4):
    src0, weights = quantized_rows(kind, rows, nblocks, stride)
    y = r.uniform(-1, 1, 32 * nblocks).astype(np.float32)
    expected = (weights.astype(np.float64) @ y.astype(np.float64)).astype(np.float32)
    args = np.zeros((), dtype=MV_ARGS)
    args["nblocks"], args["nb01"] = nblocks, stride
    ref.case("mul_mv_%s" % kind, "mul_mv_%s" % kind,
             {0: Bytes(args.tobytes()), 1: src0.view(np.int8), 2: y, 3: Out(expected, tol={"rtol": 1e-5, "atol": 1e-5})},
             threadgroup=tg, grid=rows)


def quantize_q8_0(rows=3, nblocks=4, stride=4 * 34 + 2):
    """Blocks of k * d (k in -127..127, one of them +-127, d a half): q8_0 gives back exactly d and k."""
    x = np.zeros((rows, nblocks, 32), dtype=np.float32)
    dst0 = r.integers(-128, 128, rows * stride).astype(np.int8)
    dst = bytearray(dst0.tobytes())
    for i in range(rows):
        for b in range(nblocks):
            if (i, b) == (1, 2):                                     # an all-zero block: d = 0, q = 0
                d, k = np.float16(0), np.zeros(32, dtype=np.int32)
            else:
                d = np.float16(r.uniform(0.001, 0.05))
                k = r.integers(-126, 127, 32)
                k[r.integers(0, 32)] = 127 * r.choice([-1, 1])
            x[i, b] = k.astype(np.float32) * np.float32(d)
            o = i * stride + b * 34
            dst[o:o + 34] = half_bytes(d) + k.astype(np.int8).tobytes()
    args = np.zeros((), dtype=MV_ARGS)
    args["nblocks"], args["nb01"] = nblocks, stride
    ref.case("quantize_q8_0", "quantize_q8_0",
             {0: Bytes(args.tobytes()), 1: x.reshape(-1), 2: InOut(dst0, np.frombuffer(bytes(dst), dtype=np.int8), tol=EXACT)},
             threadgroup=(2, 2), grid=(nblocks, rows))


get_rows("q4_0", 56)
get_rows("q4_1", 64)
get_rows("q5_0", 68)
get_rows("q8_0", 104)
mul_mv("q4_0", 56)
mul_mv("q8_0", 104)
quantize_q8_0()

if __name__ == "__main__":
    raise SystemExit(ref.main())
