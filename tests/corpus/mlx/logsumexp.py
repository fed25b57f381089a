#!/usr/bin/python3
"""MLX's logsumexp (kernels/logsumexp.metal, launched by mlx/backend/metal/logsumexp.cpp) against NumPy: one
threadgroup per row, `block_logsumexp_<type>` up to 4096 columns (4 a thread), `looped_` past it (1024 threads);
in, out, axis_size (int) at 0-2. Run at each SIMD width the tests use."""
import numpy as np

from mlxcase import BF16, F16, TNAME, Out, as_dtype, reference, rng, row_launch, values

ref = reference("logsumexp.metal")
r = rng(404)
TOL = {np.float32: {"rtol": 2e-6, "atol": 2e-6}, np.float16: F16, "bf16": BF16}


def case(dt, rows, axis, width=None):
    x = as_dtype(r.uniform(-20, 20, (rows, axis)), dt)
    v = values(x, dt).astype(np.float64)
    m = v.max(axis=1)
    want = as_dtype(m + np.log(np.exp(v - m[:, None]).sum(axis=1)), dt)
    looped, tg, n = row_launch(axis, rows, 4, 4096)
    entry = "%s_logsumexp_%s" % ("looped" if looped else "block", TNAME[dt])
    ref.case("mlx_%s_%dx%d%s" % (entry, rows, axis, "_w%d" % width if width else ""), entry,
             {0: x.reshape(-1), 1: Out(want, tol=TOL[dt], bf16=dt == "bf16"), 2: np.asarray([axis], np.int32)},
             threadgroup=tg, grid=n, width=width)


for w in (8, 16, 32, 64):
    case(np.float32, 6, 777, width=w)
case(np.float32, 2, 6001)
case(np.float16, 5, 200)

if __name__ == "__main__":
    raise SystemExit(ref.main())
