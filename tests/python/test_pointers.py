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


def test_argument_buffer_of_device_addresses():
    """samples/arg_buffers.metal gather_tables: a constant struct whose pointer members hold the DeviceArrays'
    device addresses, written by the caller (Table {rows, row_len, scale} x 2, then out and pairs: 48 bytes)."""
    lib = mtl2glsl.compile_shader(open(os.path.join(ROOT, "samples", "arg_buffers.metal")).read())
    rng = np.random.default_rng(9)
    rows = [rng.uniform(-4, 4, (5, 3)).astype(np.float32), rng.uniform(-4, 4, (4, 6)).astype(np.float32)]
    scales = [np.float32(0.5), np.float32(-3.0)]
    n = 21
    row_of = np.array([rng.integers(0, rows[i & 1].shape[0]) for i in range(n)], np.uint32)
    dev_rows = [mtl2glsl.array(r.reshape(-1)) for r in rows]
    out = mtl2glsl.full(n, np.nan, np.float32)
    pairs = mtl2glsl.full(2 * n, np.nan, np.float32)
    args = bytearray(48)
    for k in range(2):
        args[16 * k:16 * k + 16] = (np.array([dev_rows[k].device_address], np.uint64).tobytes() +
                                    np.array([rows[k].shape[1]], np.uint32).tobytes() + scales[k].tobytes())
    args[32:48] = np.array([out.device_address, pairs.device_address], np.uint64).tobytes()
    lib.gather_tables(np.frombuffer(bytes(args), np.uint8), row_of, n, threads=n)
    first = np.array([rows[i & 1][row_of[i], 0] * scales[i & 1] for i in range(n)], np.float32)
    last = np.array([rows[i & 1][row_of[i], -1] for i in range(n)], np.float32)
    np.testing.assert_allclose(out.numpy(), first + last, rtol=1e-6)
    np.testing.assert_allclose(pairs.numpy().reshape(n, 2), np.stack([first, last], axis=1), rtol=1e-6)
