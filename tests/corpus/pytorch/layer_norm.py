#!/usr/bin/python3
"""PyTorch's LayerNorm kernels (kernels/LayerNorm.metal, launched by layer_norm_mps in
mps/operations/Normalization.mm) against NumPy.

`layer_norm_single_row_{type}` for rows of up to 4096 (1024 x 4) elements, else `layer_norm_looped_{type}`; one
threadgroup per row (the kernels index rows by threadgroup_position_in_grid): input 0, output 1, mean 2, rstd 3
(one value per row, in T), axis_size (uint) 4, epsilon (float) 5, use_weight 6 and use_bias 7 (int), weight 8,
bias 9 (absent ones are bound here to one-element buffers the kernel does not read). The stored Normalization.mm
versions predate these kernels; the threadgroup sizes here are the rule of the fused RMSNorm host code and of MLX's
layer norm these kernels follow: 32 x ceil(ceil(N / 4) / 32) threads for a single row, 1024 for the looped kernel.
The sums are float32 in an order NumPy does not follow: float32 results within 1e-4 (the variance
E[x^2] - E[x]^2 loses a few bits), half and bfloat16 within their precision.
"""
import numpy as np

from torchcase import BF16, F16, MTYPE, Out, Scalar, as_dtype, reference, rng, values

ref = reference("LayerNorm.metal")
r = rng(1404)
TOL = {np.float32: {"rtol": 1e-4, "atol": 1e-5}, np.float16: F16, "bf16": BF16}


def case(dt, m, n, use_weight, use_bias, eps=1e-5, width=None):
    x = as_dtype(r.uniform(-1, 2, (m, n)), dt)
    w = as_dtype(r.uniform(0.5, 1.5, n), dt)
    b = as_dtype(r.uniform(-1, 1, n), dt)
    xv = values(x, dt)
    mean = xv.mean(axis=1, keepdims=True)
    var = (xv * xv).mean(axis=1, keepdims=True) - mean * mean
    var = np.where(var < 1e-6, 0.0, var)
    rstd = 1 / np.sqrt(var + np.float32(eps))
    y = (xv - mean) * rstd
    if use_weight:
        y = y * values(w, dt)
    if use_bias:
        y = y + values(b, dt)
    looped = n > 4096
    tg = 1024 if looped else 32 * -(-(-(-n // 4)) // 32)
    name = "layer_norm_%s_%s" % ("looped" if looped else "single_row", MTYPE[dt])
    bf = dt == "bf16"
    dummy = as_dtype([0], dt)
    ref.case("torch_%s_%dx%d%s%s%s" % (name, m, n, "_w" if use_weight else "", "_b" if use_bias else "",
                                       "_sg%d" % width if width else ""), name,
             {0: x.reshape(-1), 1: Out(as_dtype(y.reshape(-1), dt), tol=TOL[dt], bf16=bf),
              2: Out(as_dtype(mean.reshape(-1), dt), tol=TOL[dt], bf16=bf),
              3: Out(as_dtype(rstd.reshape(-1), dt), tol=TOL[dt], bf16=bf),
              4: Scalar("uint", n), 5: Scalar("float", np.float32(eps)), 6: Scalar("int", int(use_weight)),
              7: Scalar("int", int(use_bias)), 8: w if use_weight else dummy, 9: b if use_bias else dummy},
             threadgroup=tg, threadgroups=m, width=width)


for wd in (8, 16, 32, 64):
    case(np.float32, 4, 1001, True, True, width=wd)   # 251 threads: 8 SIMD-groups, the last partial; a 1-element tail
case(np.float32, 3, 64, False, False)                 # 16 threads: one partial SIMD-group
case(np.float16, 5, 4096, True, False)                # the largest single row
case("bf16", 2, 515, False, True)                     # a 3-element tail
case(np.float32, 3, 6001, True, True, width=32)       # looped: 2 passes, 1024 threads
case(np.float16, 2, 9000, True, True, width=8)

if __name__ == "__main__":
    raise SystemExit(ref.main())
