"""Pointers compared across buffers (docs/translator.md, "Pointers"): ggml's soft_max binds src0 again where the
host has no mask or sinks, and the kernel compares the pointers (`src1 != src0 ? ... : nullptr`). The package
binds one array given twice to one buffer, so the comparison sees the same buffer, as Metal's would."""
import os

import numpy as np

import mtl2glsl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def expected(x, mask, sinks):
    """samples/pointer_forms.metal optional_operands, mask or sinks None where src0 is bound in their place."""
    i = np.arange(x.size)
    v = x.astype(np.float64)
    v += 2.0 * mask if mask is not None else 1000.0
    v += sinks[i % 4] + sinks[0] if sinks is not None else -100.0 + 10000.0 + 0.5
    return v + 0.25


def test_pointer_comparison_sees_one_buffer_bound_twice():
    lib = mtl2glsl.compile_shader(open(os.path.join(ROOT, "samples", "pointer_forms.metal")).read())
    rng = np.random.default_rng(5)
    n = 40
    x = rng.uniform(-1, 1, n).astype(np.float32)
    mask = rng.uniform(-1, 1, n).astype(np.float32)
    sinks = rng.uniform(-1, 1, 4).astype(np.float32)
    xb = x.view(np.int8)
    for m, s in ((None, None), (mask, None), (None, sinks), (mask, sinks)):
        out = np.full(n, np.nan, np.float32)
        lib.optional_operands(xb, xb if m is None else m.view(np.int8), xb if s is None else s.view(np.int8), out, threads=n)
        np.testing.assert_allclose(out, expected(x, m, s), rtol=1e-6, atol=1e-5)
