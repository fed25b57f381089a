#!/usr/bin/python3
"""Reference for samples/function_constants.metal: function constants of 8-, 16- and 32-bit types and half, at
indices up to 65535, given by index (mtlrun --constant N=TYPE:VALUE), and branches on locals and program-scope
constants computed from them."""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("function_constants.metal")
r = rng(1300)
rows, cols = 37, 64
a = r.uniform(-2, 2, rows * cols).astype(np.float32)
b = r.uniform(-2, 2, rows * cols).astype(np.float32)


def bin_case(name, op, fused, broadcast):
    y = np.tile(b[:cols], rows) if broadcast else b
    expected = a.copy()
    for _ in range(fused):
        expected = expected + y if op == 0 else expected - y if op == 1 else expected * y
    ref.case("function_constants_" + name, "bin_op",
             {0: a, 1: b, 2: Out(expected.astype(np.float32)), 3: Scalar("uint", cols)}, threadgroup=64,
             grid=rows * cols,
             constants={1300: Scalar("short", op), 1301: Scalar("short", fused), 1302: Scalar("bool", broadcast)})


def narrow_case(name, n, tg, rows_n, shift, bias, scale, big):
    i = np.arange(n)
    v = ((i % rows_n) << shift) + bias + ((big & 0xffff) if big is not None else -1)
    tid = i % tg
    ntg = np.minimum(tg, n - (i // tg) * tg)     # the partial threadgroup at the grid's edge
    expected = (v + ntg * 1000 + tid * 100000).astype(np.int32)
    scaled = ((i % 64).astype(np.float16) * np.float16(scale)).astype(np.float16)
    constants = {60000: Scalar("ushort", rows_n), 60001: Scalar("uchar", shift), 6: Scalar("char", bias),
                 7: Scalar("half", scale)}
    if big is not None:
        constants[65535] = Scalar("uint", big)
    ref.case("function_constants_" + name, "narrow_constants",
             {0: Out(expected), 1: Out(scaled, tol={"rtol": 0, "atol": 0})}, threadgroup=tg, grid=n,
             constants=constants)


def locals_case(name, tile, lanes, n=100):
    """fc_locals: branches on locals initialized from function constants (clang folded them with the constants'
    placeholder 0, and the branches were dropped)."""
    src = r.integers(-50, 50, n).astype(np.int32)
    res = src.copy()
    res += np.where(((tile > 32) or (lanes > 1)) & (src >= 0), 1000, 0).astype(np.int32)
    res += 100 if lanes >= 16 else 0
    res += 10 if 2 * tile >= 8 else 0
    res += 1 if tile * 2 > 64 else 0
    ref.case("function_constants_" + name, "fc_locals", {0: src, 1: Out(res.astype(np.int32))}, threadgroup=32,
             grid=n, constants={40: Scalar("int", tile), 41: Scalar("short", lanes)})


bin_case("bin_add_once", 0, 1, False)
bin_case("bin_sub_twice_broadcast", 1, 2, True)
bin_case("bin_mul_three", 2, 3, False)
narrow_case("narrow_all", 1000, 64, 41000, 3, -7, 0.5, 0xfffff123)
narrow_case("narrow_undefined", 300, 32, 7, 0, 100, -2.0, None)
locals_case("locals_wide_tile", 64, 1)
locals_case("locals_many_lanes", 2, 16)
locals_case("locals_zero", 0, 0)

if __name__ == "__main__":
    raise SystemExit(ref.main())
