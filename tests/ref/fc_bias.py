#!/usr/bin/python3
"""Reference for samples/fc_bias.metal: one kernel, four pipelines chosen by function constants."""
import numpy as np
from refcase import Out, Reference, Scalar, rng

ref = Reference("fc_bias.metal")
r = rng(53)
rows, cols = 300, 37
w = r.uniform(-1, 1, (rows, cols)).astype(np.float32)
x = r.uniform(-1, 1, cols).astype(np.float32)
bias = r.uniform(-2, 2, rows).astype(np.float32)
prod = (w.astype(np.float64) @ x.astype(np.float64)).astype(np.float32)
tol = dict(rtol=1e-5, atol=1e-5)  # 37-term float sums in a different order


def case(name, expected, constants):
    ref.case("fc_bias_" + name, "matvec", {0: w, 1: x, 2: bias, 3: Out(expected, tol), 4: Scalar("uint", cols)},
             threadgroup=64, grid=rows, constants=constants)


case("plain", prod, {})
case("bias", prod + bias, {0: Scalar("bool", True)})
case("bias_relu", np.maximum(prod + bias, 0), {0: Scalar("bool", True), 1: Scalar("int", 1)})
case("relu_scaled", np.maximum(prod, 0) * np.float32(0.5),
     {0: Scalar("bool", False), 1: Scalar("int", 1), 2: Scalar("float", 0.5)})

if __name__ == "__main__":
    raise SystemExit(ref.main())
