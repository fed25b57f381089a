#!/usr/bin/python3
"""Writes the consumer's golden tests (docs/golden-tests.md): inputs from mtltest's generators, expected outputs
computed here by NumPy. Run it again after changing a test; `mtltest golden/` (or `ctest -L golden`) checks the
kernels against the files.

    PYTHONPATH=PREFIX/lib/python3.11/dist-packages python3 golden/make_goldens.py

Needs NumPy and the package's mtl2glsl.golden module (plain Python: it imports without the libraries).
"""
import os

import numpy as np

from mtl2glsl import golden as g

HERE = os.path.dirname(os.path.abspath(__file__))
LEAKY_SLOPE = np.float32(0.125)  # CMakeLists.txt's LEAKY_SLOPE, which the kernels are built with
AFFINE = {"source": "../kernels/affine.metal", "include_dirs": ["../kernels"], "defines": ["LEAKY_SLOPE=0.125f"]}
ROWSUM = {"source": "../kernels/rowsum.metal"}
ROWS, COLS = 37, 53


def affine():
    """y = leaky(1.75 x - 0.25) over 1000 elements, in threadgroups of 64 (the last one partial)."""
    x = g.generate("uniform", "float32", (1000,), seed=1)
    v = np.float32(1.75) * x + np.float32(-0.25)
    g.write_test(os.path.join(HERE, "affine.golden.json"), kernel=dict(AFFINE, entry="affine"),
                 dispatch={"threads": 1000, "threadgroup": 64},
                 buffers={"x": g.generator("uniform", "float32", (1000,), seed=1), "scale": {"value": 1.75},
                          "bias": {"value": -0.25}},
                 outputs={"y": {"golden": np.where(v >= 0, v, LEAKY_SLOPE * v).astype(np.float32)}})


def row_sums():
    """Row sums and counts above 0.25 of a 37 x 53 matrix; the sizes come as a struct (its bytes)."""
    m = g.generate("normal", "float32", (ROWS, COLS), seed=2)
    params = np.array([(ROWS, COLS, 0.25)], dtype=[("rows", "<u4"), ("cols", "<u4"), ("threshold", "<f4")])
    with open(os.path.join(HERE, "row_sums.p.bin"), "wb") as f:
        f.write(params.tobytes())
    g.write_test(os.path.join(HERE, "row_sums.golden.json"), kernel=dict(ROWSUM, entry="row_sums"),
                 dispatch={"threads": ROWS, "threadgroup": 16},
                 buffers={"m": g.generator("normal", "float32", (ROWS, COLS), seed=2), "p": {"bytes": "row_sums.p.bin"}},
                 outputs={"sums": {"golden": m.astype(np.float64).sum(axis=1).astype(np.float32),
                                   "tolerance": {"rtol": 1e-5, "atol": 1e-5}},  # summed in another order
                          "counts": {"golden": (m > np.float32(0.25)).sum(axis=1).astype(np.uint32)}})


def row_max():
    """The largest element of each row: one threadgroup of 32 per row (dispatchThreadgroups), threadgroup memory."""
    m = g.generate("uniform", "float32", (ROWS, COLS), seed=3, low=-100, high=100)
    g.write_test(os.path.join(HERE, "row_max.golden.json"), kernel=dict(ROWSUM, entry="row_max"),
                 dispatch={"threadgroups": ROWS, "threadgroup": 32, "threadgroup_memory": {"0": 32 * 4}},
                 buffers={"m": g.generator("uniform", "float32", (ROWS, COLS), seed=3, low=-100, high=100),
                          "cols": {"value": COLS}},
                 outputs={"maxes": {"golden": m.max(axis=1), "tolerance": "exact"}})


if __name__ == "__main__":
    affine()
    row_sums()
    row_max()
