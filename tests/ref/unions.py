#!/usr/bin/python3
"""Reference for samples/unions.metal: ggml's block_q4_1 (an anonymous union of an anonymous struct and a half2)
dequantized, and anonymous and named unions used through their first member."""
import numpy as np
from refcase import InOut, Out, Reference, rng

ref = Reference("unions.metal")
r = rng(4141)

# block_q4_1: half d (0), half m (2), uchar qs[16] (4); 20 bytes
BLOCK = np.dtype({"names": ["d", "m", "qs"], "formats": ["<f2", "<f2", ("u1", 16)], "offsets": [0, 2, 4],
                  "itemsize": 20})
# struct Tagged { uint tag; union { float value; uint bits; }; }: tag 0, value 4; 8 bytes
TAGGED = np.dtype({"names": ["tag", "value"], "formats": ["<u4", "<f4"], "offsets": [0, 4], "itemsize": 8})


def dequantize_case(name, nblocks, tg):
    b = np.zeros(nblocks, dtype=BLOCK)
    b["d"] = r.uniform(-0.1, 0.1, nblocks).astype(np.float16)
    b["m"] = r.uniform(-1, 1, nblocks).astype(np.float16)
    b["qs"] = r.integers(0, 256, (nblocks, 16), dtype=np.uint8)
    d = b["d"].astype(np.float32)[:, None]
    m = b["m"].astype(np.float32)[:, None]
    lo = (b["qs"] & 0x0F).astype(np.float32) * d + m
    hi = (b["qs"] >> 4).astype(np.float32) * d + m
    y = np.concatenate([lo, hi], axis=1).reshape(-1)
    ref.case(name, "dequantize_q4_1", {0: b.view(np.uint8), 1: Out(y, tol={"rtol": 1e-6, "atol": 1e-6})},
             threadgroup=tg, grid=nblocks)


def tagged_case(name, n, tg):
    t = np.zeros(n, dtype=TAGGED)
    t["tag"] = r.integers(0, 1000, n)
    t["value"] = r.uniform(-10, 10, n)
    out = t.copy()
    out["value"] = t["value"] * np.array([0.5, 2.0, -1.0, 4.0], dtype=np.float32)[t["tag"] % 4]
    out["tag"] = t["tag"] + 1
    ref.case(name, "tagged_scale", {0: InOut(t.view(np.uint32), out.view(np.uint32))}, threadgroup=tg, grid=n)


dequantize_case("unions_dequantize_q4_1", 257, 64)
tagged_case("unions_tagged_scale", 500, 64)

if __name__ == "__main__":
    raise SystemExit(ref.main())
