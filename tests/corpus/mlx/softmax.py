#!/usr/bin/python3
"""MLX's softmax (kernels/softmax.metal, launched by mlx/backend/metal/softmax.cpp) against NumPy: one threadgroup
per row, `block_softmax_<type>` up to 4096 columns (4 a thread), `looped_softmax_<type>` past it (1024 threads);
in, out, axis_size (int) at 0-2. `..._precise_` accumulates half and bfloat16 in float. SIMD-group reductions: run
at each SIMD width the tests use (32-lane SIMD-groups on 8-, 16-, 32- and 64-wide subgroups)."""
import numpy as np

from mlxcase import BF16, F16, TNAME, Out, as_dtype, reference, rng, row_launch, values

ref = reference("softmax.metal")
r = rng(403)
TOL = {np.float32: {"rtol": 2e-5, "atol": 1e-7}, np.float16: F16, "bf16": BF16}


def case(dt, rows, axis, precise=False, width=None):
    x = as_dtype(r.uniform(-6, 6, (rows, axis)), dt)
    v = values(x, dt).astype(np.float64)
    e = np.exp(v - v.max(axis=1, keepdims=True))
    want = as_dtype(e / e.sum(axis=1, keepdims=True), dt)
    looped, tg, n = row_launch(axis, rows, 4, 4096)
    entry = "%s_softmax_%s%s" % ("looped" if looped else "block", "precise_" if precise else "", TNAME[dt])
    ref.case("mlx_%s_%dx%d%s" % (entry, rows, axis, "_w%d" % width if width else ""), entry,
             {0: x.reshape(-1), 1: Out(want.reshape(-1), tol=TOL[dt], bf16=dt == "bf16"), 2: np.asarray([axis], np.int32)},
             threadgroup=tg, grid=n, width=width)


for w in (8, 16, 32, 64):
    case(np.float32, 5, 1000, width=w)          # 250 threads reading 4: 8 SIMD-groups, the last partly idle
case(np.float32, 3, 5001)                       # looped: 1024 threads, several passes
case(np.float16, 4, 333, precise=True)
case("bf16", 3, 130, precise=True)
case(np.float16, 2, 4500, precise=True)         # looped, half

if __name__ == "__main__":
    raise SystemExit(ref.main())
