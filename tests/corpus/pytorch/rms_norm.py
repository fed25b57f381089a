#!/usr/bin/python3
"""PyTorch's fused RMSNorm kernels (kernels/RMSNorm.metal, launched by _fused_rms_norm_mps in
mps/operations/RMSNorm.mm) against NumPy.

The host flattens the input to M rows of N (the normalized dimensions) and picks `rms_norm_{type}` for N <= 4096,
else `rms_norm_looped_{type}`. mtl_setArgs binds input 0, weight 1, output 2, eps (a double, passed as float) 3,
N (size_t: the kernel reads the low 32 bits as its uint) 4 and w_stride 1 (int) 5. The threadgroup is the
pipeline's maxTotalThreadsPerThreadgroup (1024) for both kernels: the host's smaller size for short rows is
computed into a shadowing variable and never used. Grid: M * 1024 threads (dispatchThreads). The kernels read
`gid` as the threadgroup's position (the template's attribute; the explicit instances say thread_position_in_grid).
Cases with SIMD-group reductions run at several subgroup widths.
"""
import numpy as np

from torchcase import MAX_THREADS, MTYPE, Scalar, as_dtype, out, reference, rng, values

ref = reference("RMSNorm.metal")
r = rng(1403)


def rounded(v, dt):
    return values(as_dtype(v, dt), dt)


def case(dt, m, n, eps=1e-5, width=None):
    x = as_dtype(r.uniform(-2, 2, (m, n)), dt)
    w = as_dtype(r.uniform(0.5, 1.5, n), dt)
    xv, wv = values(x, dt), values(w, dt)
    inv = 1 / np.sqrt(np.mean(xv * xv, axis=1, keepdims=True) + np.float32(eps))
    want = wv * rounded(xv * inv, dt)          # w[i] * static_cast<T>(x[i] * inv_rms), the product in T
    looped = n > 4096
    name = "rms_norm_%s%s" % ("looped_" if looped else "", MTYPE[dt])
    ref.case("torch_%s_%dx%d%s" % (name, m, n, "_w%d" % width if width else ""), name,
             {0: x.reshape(-1), 1: w, 2: out(want.reshape(-1), dt, True), 3: Scalar("float", np.float32(eps)),
              4: Scalar("uint", n), 5: Scalar("uint", 1)},
             threadgroup=MAX_THREADS, grid=m * MAX_THREADS, width=width)


for wd in (8, 16, 32, 64):
    case(np.float32, 5, 1000, width=wd)         # 250 threads read, the rest of the 1024 add zeros
case(np.float16, 3, 4096)                       # the largest single-row size: every thread reads 4
case("bf16", 2, 777)                            # a partial last group of 4
case(np.float32, 3, 5003, width=32)             # looped: 2 passes over the row
case(np.float16, 2, 8195, width=8)

if __name__ == "__main__":
    raise SystemExit(ref.main())
