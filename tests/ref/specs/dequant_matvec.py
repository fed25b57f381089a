#!/usr/bin/python3
"""Reference for samples/specs/dequant_matvec.json (MLX form, int template GROUP_SIZE): a 4-bit dequantizing
matrix-vector product; packed uint8 weights, float16 scales and biases; at every SIMD width."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from refcase import WIDTHS, Out, Reference, rng  # noqa: E402

ref = Reference("specs/dequant_matvec.json")
r = rng(67)


def add(n, k, group, width):
    q = r.integers(0, 16, (n, k), dtype=np.uint8)
    packed = (q[:, 0::2] | (q[:, 1::2] << 4)).astype(np.uint8)
    scales = r.uniform(0.01, 0.1, (n, k // group)).astype(np.float16)
    biases = r.uniform(-0.5, 0.5, (n, k // group)).astype(np.float16)
    x = r.standard_normal(k).astype(np.float32)
    wdq = (np.repeat(scales.astype(np.float64), group, axis=1) * q + np.repeat(biases.astype(np.float64), group, axis=1))
    y = wdq @ x.astype(np.float64)
    ref.case("spec_dequant_matvec_%dx%d_g%d_w%d" % (n, k, group, width), None,
             {"w": packed, "scales": scales, "biases": biases, "x": x,
              "out": Out(y.astype(np.float32), tol={"rtol": 1e-4, "atol": 1e-4})},
             threadgroup=(32, 4), grid=(32, n), width=width, template=[("GROUP_SIZE", group)])


for width in WIDTHS:
    add(64, 512, 64, width)
add(13, 96, 32, 8)

if __name__ == "__main__":
    raise SystemExit(ref.main())
