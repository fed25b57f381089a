#!/usr/bin/python3
"""PyTorch's fused optimizers (kernels/FusedOptimizerOps.metal, launched by mps/operations/FusedAdam*.mm and
FusedSgdKernel.mm through MultiTensorApply.h's multi_tensor_apply_for_fused_optimizer) against NumPy.

The host writes each tensor's device address into an argument buffer (buffer 0; list d's tensor t at byte
(d * 32 + t) * 8, the state steps after the lists: torchcase.multi_tensor_apply), the chunk metadata at buffer 1
and the hyperparameters as 4-byte floats and 1-byte bools from buffer 2 on; one threadgroup of
min(maxTotalThreadsPerThreadgroup, 512) threads per chunk of 65536 elements (dispatchThreadgroups). Kernel names:
fused_adam[w][_amsgrad]_{param type}_{state step type}, fused_sgd[_momentum]_{type}. Each case updates three
tensors, one of them longer than a chunk, in one dispatch; the references round to the tensor's type where the
kernel's `T(...)` conversions and T-typed operations do.
"""
import numpy as np

from torchcase import (MTYPE, InOut, Scalar, argument_buffer, as_dtype, multi_tensor_apply, reference, rng,
                       tol, values)

ref = reference("FusedOptimizerOps.metal")
r = rng(2413)
THREADS = 512
LENGTHS = (70000, 1000, 37)


def rounder(dt):
    """float32 values rounded to dtype DT and back (what a T(...) conversion keeps)."""
    return lambda x: values(as_dtype(np.asarray(x, np.float32), dt), dt).astype(np.float32)


def updated(initial, expected, dt):
    """A tensor updated in place, compared within DT's tolerance (bfloat16 bits as the values they hold)."""
    b = InOut(initial, as_dtype(expected, dt), tol=tol(dt))
    b.bf16 = dt == "bf16"
    return b


def tensor(dt, n, lo=-1.0, hi=1.0):
    return as_dtype(r.uniform(lo, hi, n), dt)


def adam_ref(p, g, m, v, vmax, step, lr, b1, b2, wd, eps, maximize, adamw, dt):
    """adam_math / adam_math_amsgrad (vmax None: without amsgrad) on float32 values of type DT."""
    R, f = rounder(dt), np.float32
    if maximize:
        g = -g
    if wd != 0:
        if adamw:
            p = R(p - R(f(lr) * f(wd) * p))
        else:
            g = R(g + R(p * f(wd)))
    m = R(f(b1) * m + (f(1) - f(b1)) * g)
    v = R(f(b2) * v + (f(1) - f(b2)) * g * g)
    step_size = f(lr) / (f(1) - np.power(f(b1), f(step)))
    bc2_sqrt = np.sqrt(f(1) - np.power(f(b2), f(step)))
    if vmax is not None:
        vmax = np.maximum(vmax, v)
    denom = np.sqrt(v if vmax is None else vmax) / bc2_sqrt + f(eps)
    p = R(p - R(step_size * m / denom))
    return p, m, v, vmax


def adam_case(name, dt, st, adamw=False, amsgrad=False, maximize=False, wd=0.01, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    depth = 5 if amsgrad else 4
    lists = [["%s%d" % (k, t) for t in range(len(LENGTHS))] for k in ("param", "grad", "exp_avg", "exp_avg_sq", "max_exp_avg_sq")[:depth]]
    steps = ["step%d" % t for t in range(len(LENGTHS))]
    buffers = {"args": argument_buffer(depth, state_steps=True)}
    for t, n in enumerate(LENGTHS):
        p, g, m = tensor(dt, n), tensor(dt, n, -2, 2), tensor(dt, n, -0.1, 0.1)
        v, vmax = tensor(dt, n, 0, 0.01), tensor(dt, n, 0, 0.012)
        step = [1.0, 5.0, 10.0][t]
        pv, gv, mv, vv, vmaxv = (values(a, dt).astype(np.float32) for a in (p, g, m, v, vmax))
        np_, nm, nv, nvmax = adam_ref(pv, gv, mv, vv, vmaxv if amsgrad else None, step, lr, b1, b2, wd, eps,
                                      maximize, adamw, dt)
        buffers["param%d" % t] = updated(p, np_, dt)
        buffers["grad%d" % t] = InOut(g, g.copy(), tol={"rtol": 0, "atol": 0})   # restored: grad = grad_
        buffers["exp_avg%d" % t] = updated(m, nm, dt)
        buffers["exp_avg_sq%d" % t] = updated(v, nv, dt)
        if amsgrad:
            buffers["max_exp_avg_sq%d" % t] = updated(vmax, nvmax, dt)
        buffers["step%d" % t] = as_dtype([step], st)
    addresses, meta, groups = multi_tensor_apply(lists, LENGTHS, state_steps=steps)
    entry = "fused_adam%s%s_%s_%s" % ("w" if adamw else "", "_amsgrad" if amsgrad else "", MTYPE[dt], MTYPE[st])
    bind = {0: "args", 1: meta, 2: Scalar("float", np.float32(lr)), 3: Scalar("float", np.float32(b1)),
            4: Scalar("float", np.float32(b2)), 5: Scalar("float", np.float32(wd)), 6: Scalar("float", np.float32(eps)),
            7: Scalar("uchar", int(maximize))}
    ref.pipeline(name, buffers, [dict(entry=entry, bind=bind, threadgroup=THREADS, threadgroups=groups)], addresses=addresses)


def sgd_case(name, dt, momentum=None, dampening=0.0, nesterov=False, first=False, maximize=False, wd=0.01, lr=0.1):
    """fused_sgd_{T} (MOMENTUM None) or fused_sgd_momentum_{T}: no state steps (the host passes none)."""
    R, f = rounder(dt), np.float32
    depth = 2 if momentum is None else 3
    lists = [["%s%d" % (k, t) for t in range(len(LENGTHS))] for k in ("param", "grad", "momentum_buffer")[:depth]]
    buffers = {"args": argument_buffer(depth)}
    for t, n in enumerate(LENGTHS):
        p, g, buf = tensor(dt, n), tensor(dt, n, -2, 2), tensor(dt, n, -0.5, 0.5)
        pv, gv, bv = (values(a, dt).astype(np.float32) for a in (p, g, buf))
        g_ = -gv if maximize else gv
        if wd != 0:
            g_ = R(g_ + R(f(wd) * pv))
        if momentum is not None:
            bv = g_ if first else R(f(momentum) * bv + (f(1) - f(dampening)) * g_)
            g_ = R(g_ + R(f(momentum) * bv)) if nesterov else bv
        pv = R(pv - R(f(lr) * g_))
        buffers["param%d" % t] = updated(p, pv, dt)
        buffers["grad%d" % t] = InOut(g, g.copy(), tol={"rtol": 0, "atol": 0})   # read only
        if momentum is not None:
            buffers["momentum_buffer%d" % t] = updated(buf, bv, dt)
    addresses, meta, groups = multi_tensor_apply(lists, LENGTHS)
    if momentum is None:
        entry = "fused_sgd_%s" % MTYPE[dt]
        bind = {2: Scalar("float", np.float32(wd)), 3: Scalar("float", np.float32(lr)), 4: Scalar("uchar", int(maximize))}
    else:
        entry = "fused_sgd_momentum_%s" % MTYPE[dt]
        bind = {2: Scalar("float", np.float32(wd)), 3: Scalar("float", np.float32(momentum)), 4: Scalar("float", np.float32(lr)),
                5: Scalar("float", np.float32(dampening)), 6: Scalar("uchar", int(nesterov)),
                7: Scalar("uchar", int(maximize)), 8: Scalar("uchar", int(first))}
    bind.update({0: "args", 1: meta})
    ref.pipeline(name, buffers, [dict(entry=entry, bind=bind, threadgroup=THREADS, threadgroups=groups)], addresses=addresses)


adam_case("torch_fused_adam_float_float", np.float32, np.float32)
adam_case("torch_fused_adam_half_float_maximize", np.float16, np.float32, maximize=True)
adam_case("torch_fused_adamw_float_float", np.float32, np.float32, adamw=True, wd=0.1)
adam_case("torch_fused_adamw_bfloat_bfloat", "bf16", "bf16", adamw=True, wd=0.1)
adam_case("torch_fused_adam_amsgrad_float_half", np.float32, np.float16, amsgrad=True)
sgd_case("torch_fused_sgd_float", np.float32)
sgd_case("torch_fused_sgd_half_maximize", np.float16, maximize=True)
sgd_case("torch_fused_sgd_momentum_float_first", np.float32, momentum=0.9, first=True)
sgd_case("torch_fused_sgd_momentum_float_nesterov", np.float32, momentum=0.9, nesterov=True)
sgd_case("torch_fused_sgd_momentum_half_dampening", np.float16, momentum=0.8, dampening=0.25)

if __name__ == "__main__":
    raise SystemExit(ref.main())
