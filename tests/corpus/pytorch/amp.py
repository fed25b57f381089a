#!/usr/bin/python3
"""PyTorch's automatic-mixed-precision kernels (kernels/Amp.metal, launched by mps/operations/Amp.mm) against
NumPy.

ampNonFiniteCheckAndUnscaleSingle_{type} (torch._amp_foreach_non_finite_check_and_unscale_ for a tensor that is
not dense or not of the list's dtype): the gradient at 0 (scaled in place), found_inf (float) at 1, inv_scale at 2;
numel threads in groups of 256 (dispatchThreads). ampUpdateScale_{type} (torch._amp_update_scale_): scale 0,
growth_tracker (int) 1, found_inf 2, growth and backoff factors 3 and 4, growth_interval 5; one thread.
The host passes inv_scale and the factors as 4-byte floats (mtl_setArgs of a float); the float instances read
them as such, the half and bfloat instances read a 2-byte `constant T&` there, so those cases give the T value (what the kernel
is meant to read: with the host's float bytes a half instance reads the float's low 16 bits).
ampNonFiniteCheckAndUnscale_{type} (the multi-tensor kernel, MultiTensorApply.h's multi_tensor_apply<1>): the
tensors' device addresses in an argument buffer at 0 (a `constant` struct of `metal::array<device T*, 32>`, tensor t
at byte 8 t), the chunk metadata at 1, found_inf at 2, inv_scale at 3; one threadgroup of min(maxThreads, 64)
threads per chunk of 65536 elements (dispatchThreadgroups).
"""
import numpy as np

from torchcase import (MTYPE, Bytes, InOut, Scalar, argument_buffer, as_dtype, multi_tensor_apply, reference, rng, tol,
                       values)

ref = reference("Amp.metal")
r = rng(1405)
SCALAR = {np.float32: "float", np.float16: "half"}


def scalar_arg(dt, v):
    """A `constant T&` scalar: bfloat16 (no mtlrun scalar type) as its two bytes."""
    return Bytes(as_dtype([v], dt).tobytes()) if dt == "bf16" else Scalar(SCALAR[dt], v)


def unscale_case(dt, n, inv_scale, specials):
    g = as_dtype(r.uniform(-100, 100, n), dt)
    g = np.array(g)
    if specials:
        g[7] = as_dtype([np.inf], dt)[0]
        g[n // 2] = as_dtype([-np.inf], dt)[0]
        g[n - 3] = as_dtype([np.nan], dt)[0]
    gv = values(g, dt)
    want = gv if inv_scale == 1.0 else gv * np.float64(values(as_dtype([inv_scale], dt), dt)[0])
    found = np.array([1.0 if specials else 0.0], dtype=np.float32)
    data = InOut(g, as_dtype(want, dt), tol={"rtol": 0, "atol": 0} if dt == "bf16" else tol(dt))
    data.bf16 = dt == "bf16"   # bfloat16 compared as values, exactly: a NaN's payload is the device's (NVIDIA: 0x7FFF)
    data.nan_ok = specials
    name = "ampNonFiniteCheckAndUnscaleSingle_%s" % MTYPE[dt]
    # found_inf starts at 0 (a fresh zeros tensor); an exact power of two keeps every product exact
    ref.case("torch_%s_%d%s" % (name, n, "_nonfinite" if specials else ""), name,
             {0: data, 1: InOut(np.zeros(1, np.float32), found), 2: scalar_arg(dt, inv_scale)},
             threadgroup=256, grid=n)


def multi_unscale_case(dt, lengths, inv_scale, specials):
    """The multi-tensor kernel over tensors of LENGTHS (one longer than a chunk) in one dispatch; SPECIALS: a
    non-finite value in the last tensor only, so found_inf says whether any tensor of the list had one."""
    buffers, names = {"args": argument_buffer(1)}, []
    for t, n in enumerate(lengths):
        g = np.array(as_dtype(r.uniform(-100, 100, n), dt))
        if specials and t == len(lengths) - 1:
            g[n // 3] = as_dtype([np.inf], dt)[0]
            g[n - 1] = as_dtype([np.nan], dt)[0]
        gv = values(g, dt)
        want = gv if inv_scale == 1.0 else gv * np.float64(values(as_dtype([inv_scale], dt), dt)[0])
        data = InOut(g, as_dtype(want, dt), tol={"rtol": 0, "atol": 0} if dt == "bf16" else tol(dt))
        data.bf16 = dt == "bf16"
        data.nan_ok = specials
        buffers["data%d" % t] = data
        names.append("data%d" % t)
    buffers["found_inf"] = InOut(np.zeros(1, np.float32), np.array([1.0 if specials else 0.0], np.float32))
    addresses, meta, groups = multi_tensor_apply([names], lengths)
    name = "ampNonFiniteCheckAndUnscale_%s" % MTYPE[dt]
    ref.pipeline("torch_%s_%d%s" % (name, len(lengths), "_nonfinite" if specials else ""), buffers,
                 [dict(entry=name, bind={0: "args", 1: meta, 2: "found_inf", 3: scalar_arg(dt, inv_scale)},
                       threadgroup=64, threadgroups=groups)], addresses=addresses)


def update_case(dt, scale, tracker, found_inf, growth, backoff, interval, label):
    s = values(as_dtype([scale], dt), dt)[0]
    if found_inf:
        new_s, new_t = s * backoff, 0
    elif tracker + 1 >= interval:
        new_s, new_t = s * growth, 0
    else:
        new_s, new_t = s, tracker + 1
    name = "ampUpdateScale_%s" % MTYPE[dt]
    ref.case("torch_%s_%s" % (name, label), name,
             {0: InOut(as_dtype([scale], dt), as_dtype([new_s], dt)),
              1: InOut(np.array([tracker], np.int32), np.array([new_t], np.int32)),
              2: np.array([1.0 if found_inf else 0.0], np.float32),
              3: scalar_arg(dt, growth), 4: scalar_arg(dt, backoff), 5: Scalar("int", interval)},
             threadgroup=1, grid=1)


unscale_case(np.float32, 1000, 0.25, True)
unscale_case(np.float32, 4097, 0.5, False)
unscale_case(np.float32, 300, 1.0, True)        # inv_scale 1: values kept as they are
unscale_case(np.float16, 777, 0.125, True)
unscale_case("bf16", 515, 0.5, True)
multi_unscale_case(np.float32, [70000, 300, 17], 0.25, True)
multi_unscale_case(np.float32, [1000, 65536], 0.5, False)
multi_unscale_case(np.float16, [900, 77], 0.125, True)
update_case(np.float32, 65536.0, 3, True, 2.0, 0.5, 2000, "backoff")
update_case(np.float32, 1024.0, 5, False, 2.0, 0.5, 2000, "count")
update_case(np.float32, 1024.0, 1999, False, 2.0, 0.5, 2000, "grow")
update_case(np.float16, 2048.0, 9, False, 2.0, 0.5, 10, "grow")
update_case("bf16", 4096.0, 0, True, 2.0, 0.5, 10, "backoff")

if __name__ == "__main__":
    raise SystemExit(ref.main())
