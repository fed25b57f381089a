#!/usr/bin/python3
"""MLX's arange (kernels/arange.metal, launched by Arange::eval_gpu in mlx/backend/metal/primitives.cpp) against
NumPy: out[i] = start + i * step, start and step (`constant T&`, the output's type) at 0-1, out at 2, a 1-D grid in
groups of min(1024, n)."""
import numpy as np

from mlxcase import EXACT, F16, Out, Scalar, reference

ref = reference("arange.metal")


def case(tname, dt, mtl_type, start, step, n, tol=EXACT):
    i = np.arange(n)
    if np.dtype(dt).kind == "f":
        want = (np.asarray(start, dt) + (i.astype(dt) * np.asarray(step, dt)).astype(dt)).astype(dt)
    else:
        want = (start + i * step).astype(dt)
    ref.case("mlx_arange%s_%d" % (tname, n), "arange" + tname,
             {0: Scalar(mtl_type, start), 1: Scalar(mtl_type, step), 2: Out(want, tol=tol)},
             threadgroup=min(1024, n), grid=n)


case("float32", np.float32, "float", -3.5, 0.25, 1500, tol={"rtol": 1e-6, "atol": 1e-6})
case("int32", np.int32, "int", -100, 3, 777)
case("uint8", np.uint8, "uchar", 7, 2, 100)
case("int16", np.int16, "short", 1000, -7, 300)
case("float16", np.float16, "half", 0.5, 0.125, 200, tol=F16)

if __name__ == "__main__":
    raise SystemExit(ref.main())
