#!/usr/bin/python3
"""Compares an array produced by a kernel with the one NumPy expects.

    compare.py GOT.npy EXPECTED.npy [--rtol R] [--atol A] [--nan-ok]

Floats: |got - expected| <= atol + rtol * |expected| elementwise; NaN in got fails unless --nan-ok and
NaN is expected there too (a NaN is what --poison leaves in elements the kernel never wrote).
Integers and bools: exact. The dtypes must be equal and the element counts too (shapes are compared flat).
"""
import argparse
import sys

import numpy as np

MAX_SHOWN = 10
POISON_WORD = 0xA5A5A5A5


def _index(flat, shape, labels):
    idx = np.unravel_index(flat, shape) if shape else ()
    text = "[" + ", ".join(str(int(t)) for t in idx) + "]"
    if labels and len(shape) >= 1 and len(labels) == shape[-1]:
        text += " (%s)" % labels[int(idx[-1])]
    return text


def _looks_poisoned(value, dtype):
    if dtype.kind == "f":
        return bool(np.isnan(value))
    raw = np.array([value], dtype=dtype).view(np.uint8)
    return raw.size > 0 and bool(np.all(raw == 0xA5))


def compare(got, expected, rtol=0.0, atol=0.0, nan_ok=False, labels=None):
    """Returns (ok, lines): lines say what differs, first MAX_SHOWN mismatches with index, got, expected."""
    got, expected = np.asarray(got), np.asarray(expected)
    if got.dtype != expected.dtype:
        return False, ["dtype: got %s, expected %s" % (got.dtype, expected.dtype)]
    if got.size != expected.size:
        return False, ["size: got %d elements %s, expected %d %s" % (got.size, got.shape, expected.size,
                                                                   expected.shape)]
    g, e = got.reshape(-1), expected.reshape(-1)
    if expected.dtype.kind == "f":
        g64, e64 = g.astype(np.float64), e.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            close = np.isclose(g64, e64, rtol=rtol, atol=atol, equal_nan=nan_ok)
            same_inf = np.isinf(e64) & (g64 == e64)
        bad = ~(close | same_inf)
    else:
        bad = g != e
    nbad = int(np.count_nonzero(bad))
    if nbad == 0:
        return True, []
    lines = ["%d of %d elements differ (rtol %g, atol %g)" % (nbad, g.size, rtol, atol)]
    for flat in np.flatnonzero(bad)[:MAX_SHOWN]:
        gv, ev = g[flat], e[flat]
        line = "  at %s: got %r, expected %r" % (_index(flat, expected.shape, labels), gv.item(), ev.item())
        if expected.dtype.kind == "f" and np.isfinite(gv) and np.isfinite(ev):
            line += ", |diff| %.3g" % abs(float(gv) - float(ev))
        if _looks_poisoned(gv, expected.dtype):
            line += "  (poison: never written?)"
        lines.append(line)
    if expected.dtype.kind == "f":
        n_nan = int(np.count_nonzero(np.isnan(g) & ~np.isnan(e)))
        if n_nan:
            lines.append("  %d elements are NaN where a number was expected (unwritten under --poison?)" % n_nan)
    return False, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("got")
    ap.add_argument("expected")
    ap.add_argument("--rtol", type=float, default=None)
    ap.add_argument("--atol", type=float, default=None)
    ap.add_argument("--nan-ok", action="store_true")
    a = ap.parse_args()
    expected = np.load(a.expected)
    is_float = expected.dtype.kind == "f"
    rtol = a.rtol if a.rtol is not None else (1e-5 if is_float else 0.0)
    atol = a.atol if a.atol is not None else (1e-6 if is_float else 0.0)
    ok, lines = compare(np.load(a.got), expected, rtol, atol, a.nan_ok)
    print("PASS" if ok else "FAIL")
    for line in lines:
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
