#!/usr/bin/python3
"""Reference for samples/reduce_templates.metal: templated row reductions with threadgroup memory."""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("reduce_templates.metal")
r = rng(55)
rows, cols = 37, 1000


def case(name, entry, x, expected, tg, tol=None):
    ref.case(name, entry, {0: x, 1: Out(expected, tol), 2: Scalar("uint", cols)}, threadgroup=tg, threadgroups=rows)


xf = r.uniform(-1, 1, (rows, cols)).astype(np.float32)
xh = r.uniform(-1, 1, (rows, cols)).astype(np.float16)
xi = r.integers(-1000, 1000, (rows, cols)).astype(np.int32)
sum_tol = dict(rtol=1e-5, atol=2e-5)  # 1000-term float sums in a tree order
case("reduce_sum_float_64", "row_sum_float_64", xf, xf.astype(np.float64).sum(axis=1).astype(np.float32), 64, sum_tol)
case("reduce_sum_half_32", "row_sum_half_32", xh, xh.astype(np.float64).sum(axis=1).astype(np.float32), 32, sum_tol)
case("reduce_sum_int_128", "row_sum_int_128", xi, xi.sum(axis=1).astype(np.int32), 128)
case("reduce_max_float_64", "row_max_float_64", xf, xf.max(axis=1), 64)
case("reduce_max_int_32", "row_max_int_32", xi, xi.max(axis=1), 32)

if __name__ == "__main__":
    raise SystemExit(ref.main())
