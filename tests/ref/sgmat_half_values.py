#!/usr/bin/python3
"""Reference for samples/sgmat_half_values.metal: GEMMs over float fragments filled from half threadgroup memory
(MLX's steel tiles), against NumPy's float64 products of the inputs as the kernels hold them.

Run here (exact path) and, on a device with tensor cores, translated with --tensor-cores (tests/payload.py): the
products proven to see half values only then run on the tensor cores, and must meet the same tolerances.
"""
import numpy as np
from refcase import Bytes, Out, Reference, rng

ref = Reference("sgmat_half_values.metal")
r = rng(41)
TOL = {"rtol": 1e-5, "atol": 2e-5}
M, N, K = 24, 32, 40
SIZE = np.array([M, N, K], np.uint32).tobytes()
GROUPS = (N // 16, M // 8)

a16 = r.uniform(-1, 1, (M, K)).astype(np.float16)
b16 = r.uniform(-1, 1, (K, N)).astype(np.float16)
a32 = r.uniform(-1, 1, (M, K)).astype(np.float32)
b32 = r.uniform(-1, 1, (K, N)).astype(np.float32)
v32 = r.uniform(-1, 1, (8, N)).astype(np.float32)
alpha = np.float32(0.3)


def product(a, b):
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32).reshape(-1)


# A's fragment times alpha in float, as the kernel rounds it, before each product
scaled = (a16.astype(np.float32) * alpha).astype(np.float64) @ b16.astype(np.float64)
# P = A * B[:, 0:8] (rounded to float, as the kernel holds it), then O = P * V
p = (a16.astype(np.float64) @ b16[:, :8].astype(np.float64)).astype(np.float32)

for width in (8, 32):
    ref.case("frag_gemm_half_w%d" % width, "frag_gemm_half",
             {0: a16.reshape(-1), 1: b16.reshape(-1), 2: Out(product(a16, b16), tol=TOL), 3: Bytes(SIZE)},
             threadgroup=32, threadgroups=GROUPS, width=width)
    ref.case("frag_gemm_scaled_w%d" % width, "frag_gemm_scaled",
             {0: a16.reshape(-1), 1: b16.reshape(-1), 2: Out(scaled.astype(np.float32).reshape(-1), tol=TOL),
              3: Bytes(SIZE), 4: Bytes(alpha.tobytes())},
             threadgroup=32, threadgroups=GROUPS, width=width)
    ref.case("frag_gemm_float_w%d" % width, "frag_gemm_float",
             {0: a32.reshape(-1), 1: b32.reshape(-1), 2: Out(product(a32, b32), tol=TOL), 3: Bytes(SIZE)},
             threadgroup=32, threadgroups=GROUPS, width=width)
    ref.case("frag_chain_w%d" % width, "frag_chain",
             {0: a16.reshape(-1), 1: b16.reshape(-1), 2: v32.reshape(-1), 3: Out(product(p, v32), tol=TOL),
              4: Bytes(SIZE)},
             threadgroup=32, threadgroups=GROUPS, width=width)

if __name__ == "__main__":
    raise SystemExit(ref.main())
