#!/usr/bin/python3
"""Reference for samples/bitcast.metal: as_type<T>(x) is NumPy's .view of the same bytes (little-endian)."""
import numpy as np
from refcase import Out, Reference, rng

ref = Reference("bitcast.metal")
r = rng(71)
BITS = {"rtol": 0, "atol": 0}


def words(n, size, special):
    """N random words of SIZE bytes with the bit patterns that matter at the start of the buffer."""
    raw = r.integers(0, 256, n * size, dtype=np.uint8)
    sp = np.frombuffer(np.array(special, dtype="<u%d" % size if size <= 8 else "<u4").tobytes(), dtype=np.uint8)
    raw[:sp.size] = sp
    return raw


def out(raw, dtype):
    a = raw.view(dtype).copy()
    return Out(a, tol=BITS, nan_ok=a.dtype.kind == "f")


# float: -0, quiet and signalling NaNs with payloads, infinities, denormals, max; half the same in each half-word
F32 = [0x80000000, 0x7FC00001, 0xFFC00000, 0x7F800001, 0xFF800000, 0x7F800000, 0x00000001, 0x807FFFFF,
       0x7F7FFFFF, 0x3F800000, 0x7C017E01, 0xFC008001, 0x00018000, 0x03FF7BFF, 0xFFFFFFFF, 0x80808080]
F16 = [0x8000, 0x7E01, 0x7C01, 0xFC00, 0x7C00, 0x0001, 0x83FF, 0x7BFF, 0x3C00, 0xFFFF, 0x8080, 0x7F80, 0xFF81,
       0x0080, 0x00FF, 0x7FFF]
F64 = [0x8000000080000000, 0x7FC000017E01FC00, 0x7F800001FFC00001, 0x0000000180008000, 0xFFFFFFFFFFFFFFFF,
       0x3F8000003C000001, 0x807FFFFF03FF7BFF, 0x7FF0000000000001]


def bits(name, entry, n, tg, size, special, views, tiles):
    """Buffer 0 the words, then each view as input, each view as as_type's expected output, then the words
    repeated TILES times (the kernel writes every pair's round trip back as words)."""
    raw = words(n, size, special)
    w = raw.view("<u%d" % size)
    k = len(views)
    bufs = {0: w}
    for j, v in enumerate(views):
        bufs[1 + j] = raw.view(v).copy()
        bufs[1 + k + j] = out(raw, v)
    bufs[1 + 2 * k] = Out(np.tile(w, tiles[0]))
    bufs[2 + 2 * k] = Out(np.tile(w, tiles[1]))
    ref.case(name, entry, bufs, threadgroup=tg, grid=n)


def bits128(name, n, tg):
    raw = words(n, 16, F32)
    w = raw.view("<u4")
    x = w.reshape(n, 4)
    f3 = x[:, :3].copy()
    h3 = x[:, :2].copy().view("<u2").reshape(n, 4)[:, :3].copy()
    w3 = x.copy()
    w3[:, 3] = 0                                                         # int3 -> long2: the fourth word is 0
    c3 = x[:, 2].copy().view("<u1").reshape(n, 4)[:, :3].copy()
    bufs = {0: w, 1: raw.view("<i8").copy(), 2: out(raw, "<f4"), 3: out(raw, "<i4"), 4: Out(w.copy()),
            5: Out(raw.view("<u8").copy()),
            6: Out(f3.view("<f4").ravel(), tol=BITS, nan_ok=True), 7: Out(f3.ravel()), 8: Out(f3.view("<i4").ravel()),
            9: Out(h3.view("<f2").ravel(), tol=BITS, nan_ok=True), 10: Out(h3.ravel()), 11: Out(c3.ravel()),
            12: Out(raw.view("<i4").copy()), 13: Out(raw.view("<u8").copy()), 14: Out(w3.view("<i8").ravel())}
    ref.case(name, "bits128", bufs, threadgroup=tg, grid=n)


# short, half, bfloat (its bits), char2, uchar2
bits("bits16_256", "bits16", 256, 64, 2, F16, ["<i2", "<f2", "<u2", "<i1", "<u1"], (5, 36))
# int, float, half2, short2, ushort2, char4, uchar4
bits("bits32_200", "bits32", 200, 32, 4, F32, ["<i4", "<f4", "<f2", "<i2", "<u2", "<i1", "<u1"], (7, 81))
# long, uint2, int2, float2, half4, short4, ushort4
bits("bits64_130", "bits64", 130, 64, 8, F64, ["<i8", "<u4", "<i4", "<f4", "<f2", "<i2", "<u2"], (7, 81))
bits128("bits128_100", 100, 32)

if __name__ == "__main__":
    raise SystemExit(ref.main())
