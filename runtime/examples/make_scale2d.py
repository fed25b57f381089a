"""Inputs and reference for scale2d.comp: a 23 x 37 half image, Params {width 37, scale 2.0}."""
import struct
import sys
from npy_min import save

out = sys.argv[1] if len(sys.argv) > 1 else "."
w, h = 37, 23
src = [(i % 100) * 0.25 for i in range(w * h)]
save(out + "/src.npy", "<f2", (h, w), src)
save(out + "/dst_ref.npy", "<f2", (h, w), [src[y * w + x] * 2.0 + x for y in range(h) for x in range(w)])
with open(out + "/params.bin", "wb") as f:
    f.write(struct.pack("<If", w, 2.0))
