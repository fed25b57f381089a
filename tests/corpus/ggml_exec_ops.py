#!/usr/bin/python3
"""ggml's element-wise, normalization, softmax, RoPE, row-gather, copy, sort and row-sum kernels run against NumPy,
launched as ggml's host code (ggml-metal-ops.cpp, ggml-metal-device.cpp) launches them: the argument struct at
buffer 0, packed as ggml-metal-impl.h declares it, the sources and destination at the indices the host binds, its
grid, threadgroup size, threadgroup memory and function constants. Where ggml binds src0 again for an absent
optional source (soft_max's mask and sinks), the same buffer is bound there (refcase.Same). Sources have padded rows
(byte strides that are not the row's size) and broadcast shapes where the kernel supports them; destinations are
InOut buffers with padding, which must stay as they were.

    ggml_exec_ops.py OUTDIR | --list      (run by tests/run_exec.py; MTL2GLSL_GGML_DIR names the llama.rn package)
"""
import math

import numpy as np

from ggml_ref import EXACT, Tensor, cstruct, dyadic, pack, reference
from refcase import Bytes, InOut, Out, Same, Scalar, rng

ref = reference()
r = rng(307)
I4, U8, I8, F4 = "i4", "u8", "i8", "f4"


def dst_like(shape, dtype=np.float32, pad1=0, pad2=0):
    """A destination tensor whose elements and padding start as finite random values (InOut)."""
    t = Tensor(shape, dtype, pad1, pad2, fill=0)
    t.buf.view(dtype)[:] = r.uniform(-9, 9, t.buf.size // np.dtype(dtype).itemsize).astype(dtype)
    return t


def inout(t, want, tol):
    """InOut of tensor T's buffer: the elements become WANT, the padding stays."""
    before = t.buf.view(t.dtype).copy()
    t.view[...] = want
    return InOut(before, t.buf.view(t.dtype).copy(), tol=tol, raw=True)


# ---- add / mul: kernel_bin_fuse_* (FC_BIN = 1300: op, number of fused sources, row broadcast, column broadcast)

BIN = cstruct(*[(n, I4) for n in ("ne00", "ne01", "ne02", "ne03")], *[(n, U8) for n in ("nb00", "nb01", "nb02", "nb03")],
              *[(n, I4) for n in ("ne10", "ne11", "ne12", "ne13")], *[(n, U8) for n in ("nb10", "nb11", "nb12", "nb13")],
              *[(n, I4) for n in ("ne0", "ne1", "ne2", "ne3")], *[(n, U8) for n in ("nb0", "nb1", "nb2", "nb3")],
              ("offs", U8), ("o1", U8, 8))
assert BIN.itemsize == 216


def binary(name, op, shape0, shape1, nf=1, pad=3):
    """dst = src0 (op) src1[0] (op) src1[1] ... with src1 repeated to src0's shape (ggml_can_repeat), the nf sources
    in one buffer at offsets o1[j] (ggml fuses chained adds so). op: 0 add, 2 mul. Values are multiples of 1/16
    (exact). The row-broadcast form (src1 one row, both contiguous, under 65536 elements) runs one thread per
    element over (ne0, rows) threadgroups; the general one a threadgroup of nth threads per row."""
    c4 = shape0[3] % 4 == 0 and shape1[3] % 4 == 0
    cb = shape0[3] != shape1[3]
    rb = pad == 0 and int(np.prod(shape1[:3])) == 1 and int(np.prod(shape0)) < 65536
    a = dyadic(r, shape0, -4, 4, 16)
    bs = [dyadic(r, shape1, -2, 2, 16) for _ in range(nf)]
    if op == 2:
        bs = [np.where(b == 0, np.float32(0.5), b) for b in bs]
    want = a.astype(np.float64)
    for b in bs:
        rep = np.tile(b, [s0 // s1 for s0, s1 in zip(shape0, shape1)]).astype(np.float64)
        want = want + rep if op == 0 else want * rep
    src0 = Tensor(shape0, np.float32, pad1=pad, r=r).set(a)
    # the fused sources one after another in src1's buffer, each with padded rows, the first at an offset
    one = Tensor(shape1, np.float32, pad1=pad, r=r)
    size = one.buf.size
    offs = [16 + j * (size + 8) for j in range(nf)]
    buf1 = r.integers(0, 256, offs[-1] + size + 8).astype(np.uint8)
    for j, b in enumerate(bs):
        np.ndarray(shape1, np.float32, buf1, offs[j], strides=tuple(reversed(one.nb)))[...] = b
    dst = dst_like(shape0, pad1=pad)
    v = dict(ne00=shape0[3], ne01=shape0[2], ne02=shape0[1], ne03=shape0[0], ne10=shape1[3], ne11=shape1[2],
             ne12=shape1[1], ne13=shape1[0], ne0=shape0[3], ne1=shape0[2], ne2=shape0[1], ne3=shape0[0])
    v.update(src0.nbs("nb0"))
    v.update({"nb1%d" % i: one.nb[i] for i in range(4)})
    v.update(dst.nbs("nb"))
    o1 = np.zeros(8, np.uint64)
    o1[:nf] = offs
    v["o1"] = o1
    if c4:
        v["ne00"] //= 4
        v["ne10"] //= 4
        v["ne0"] //= 4
    if rb:
        groups, tg = (v["ne0"], int(np.prod(shape0[:3])), 1), 1
    else:
        nth = 1
        while 2 * nth < v["ne0"] and nth < 256:
            nth *= 2
        groups, tg = (shape0[2], shape0[1], shape0[0]), nth
    ref.case(name, "kernel_bin_fuse_f32_f32_f32" + ("_4" if c4 else ""),
             {0: Bytes(pack(BIN, **v)), 1: src0.bytes(), 2: buf1.view(np.int8).copy(),
              3: inout(dst, want.astype(np.float32), EXACT)},
             threadgroup=tg, threadgroups=groups,
             constants={1300: Scalar("short", op), 1301: Scalar("short", nf), 1302: Scalar("bool", rb),
                        1303: Scalar("bool", cb)})


binary("ggml_add_bcast_rows", 0, (2, 3, 5, 37), (1, 3, 1, 37))            # src1 repeated over rows and the outer dim
binary("ggml_mul_bcast_cols", 2, (1, 4, 7, 35), (1, 4, 1, 7))             # src1's 7 columns repeated 5 times (cb)
binary("ggml_add_fused3", 0, (1, 2, 3, 41), (1, 2, 3, 41), nf=3)          # three chained adds fused (FC_F = 3)
binary("ggml_mul_row_4", 2, (1, 1, 6, 40), (1, 1, 1, 40), pad=0)          # one row, float4, a thread per element (rb)

# ---- scale, silu, gelu: kernel_unary_* (FC_UNARY = 1200: op, contiguous)

UNARY = cstruct(*[(n, I4) for n in ("ne00", "ne01", "ne02", "ne03")], *[(n, U8) for n in ("nb00", "nb01", "nb02", "nb03")],
                *[(n, I4) for n in ("ne0", "ne1", "ne2", "ne3")], *[(n, U8) for n in ("nb0", "nb1", "nb2", "nb3")],
                *[(n, F4) for n in ("slope", "scale", "bias", "val", "min", "max")])
assert UNARY.itemsize == 120
OP_SCALE, OP_GELU, OP_SILU = 10, 103, 106


def unary(name, op, shape, x, want, tol, pad=0, **params):
    """Contiguous sources under 32768 elements run one thread per element (or float4) over n threadgroups;
    others a threadgroup of min(ne00, 256) threads per row piece."""
    c4 = shape[3] % 4 == 0
    cnt = pad == 0 and int(np.prod(shape)) < 32768
    src = Tensor(shape, np.float32, pad1=pad, r=r).set(x)
    dst = dst_like(shape, pad1=pad)
    v = dict(ne00=shape[3], ne01=shape[2], ne02=shape[1], ne03=shape[0], ne0=shape[3], ne1=shape[2], ne2=shape[1],
             ne3=shape[0], **params)
    v.update(src.nbs("nb0"))
    v.update(dst.nbs("nb"))
    if c4:
        v["ne00"] //= 4
        v["ne0"] //= 4
    if cnt:
        groups, tg = (int(np.prod(shape)) // (4 if c4 else 1), 1, 1), 1
    else:
        nth = min(v["ne00"], 256)
        groups, tg = (-(-v["ne00"] // nth) * shape[2], shape[1], shape[0]), nth
    ref.case(name, "kernel_unary_f32_f32" + ("_4" if c4 else ""),
             {0: Bytes(pack(UNARY, **v)), 1: src.bytes(), 2: inout(dst, want, tol)},
             threadgroup=tg, threadgroups=groups,
             constants={1200: Scalar("short", op), 1201: Scalar("bool", cnt)})


x = dyadic(r, (1, 2, 3, 301), -8, 8, 64)
unary("ggml_scale_rows", OP_SCALE, x.shape, x, (x.astype(np.float64) * 0.75 - 1.25).astype(np.float32), EXACT, pad=5,
      scale=0.75, bias=-1.25)                                              # 2 threadgroups per row (256 + 45 threads)
x = r.uniform(-6, 6, (1, 1, 5, 36)).astype(np.float32)
unary("ggml_silu_4", OP_SILU, x.shape, x, (x / (1 + np.exp(-x.astype(np.float64)))).astype(np.float32),
      {"rtol": 1e-5, "atol": 1e-6})
x = r.uniform(-5, 5, (1, 1, 3, 37)).astype(np.float32)
xd = x.astype(np.float64)
unary("ggml_gelu", OP_GELU, x.shape, x,
      (0.5 * xd * (1 + np.tanh(math.sqrt(2 / math.pi) * xd * (1 + 0.044715 * xd * xd)))).astype(np.float32),
      {"rtol": 1e-5, "atol": 2e-6})

# ---- rms_norm, norm (fused with mul and add): kernel_rms_norm*_f32[_4], kernel_norm*_f32[_4]

NORM = cstruct(("ne00", I4), ("ne00_t", I4), ("nb1", U8), ("nb2", U8), ("nb3", U8), ("eps", F4),
               ("nef1", I4, 3), ("nef2", I4, 3), ("nef3", I4, 3), ("nbf1", U8, 3), ("nbf2", U8, 3), ("nbf3", U8, 3))
assert NORM.itemsize == 144


def norm(name, rms, shape, fuse=(), eps=1e-5):
    """y = x / sqrt(mean(x^2) + eps) (rms) or (x - mean) / sqrt(var + eps), then * f0 (+ f1) broadcast over rows;
    nth = the least power of two from 32 not below ne00_t, at most ne00_t: threadgroups that are not a multiple of 32
    wide, and narrower than one SIMD-group."""
    x = r.normal(0, 1, shape).astype(np.float32)
    xd = x.astype(np.float64)
    if rms:
        y = xd / np.sqrt((xd * xd).mean(axis=-1, keepdims=True) + eps)
    else:
        c = xd - xd.mean(axis=-1, keepdims=True)
        y = c / np.sqrt((c * c).mean(axis=-1, keepdims=True) + eps)
    p4 = shape[3] % 4 == 0    # float4 rows start at multiples of 16 bytes (ggml's rows are contiguous)
    src = Tensor(shape, np.float32, pad1=4 if p4 else 3, r=r).set(x)
    dst = dst_like(shape, pad1=4 if p4 else 1)
    ne00 = shape[3]
    ne00_t = ne00 // 4 if ne00 % 4 == 0 else ne00
    v = dict(ne00=ne00, ne00_t=ne00_t, nb1=dst.nb[1], nb2=dst.nb[2], nb3=dst.nb[3], eps=eps)
    nef = np.zeros((3, 3), np.int32)      # [dim 1..3][source]
    nbf = np.zeros((3, 3), np.uint64)
    nef[:, 0] = shape[2], shape[1], shape[0]
    nbf[:, 0] = src.nb[1], src.nb[2], src.nb[3]
    bufs = [src.bytes(), src.bytes()]     # the host binds src0 where there is no fused source
    for j, fshape in enumerate(fuse):
        f = r.normal(0, 1, fshape).astype(np.float32)
        ft = Tensor(fshape, np.float32, pad1=8 if p4 else 2, r=r).set(f)
        y = y * f if j == 0 else y + f
        nef[:, j + 1] = fshape[2], fshape[1], fshape[0]
        nbf[:, j + 1] = ft.nb[1], ft.nb[2], ft.nb[3]
        bufs[j] = ft.bytes()
    for k, n in enumerate(("1", "2", "3")):
        v["nef" + n] = nef[k]
        v["nbf" + n] = nbf[k]
    nth = 32
    while nth < ne00_t and nth < 1024:
        nth *= 2
    nth = min(nth, ne00_t)
    kind = ("rms_norm" if rms else "norm") + ("", "_mul", "_mul_add")[len(fuse)] + "_f32" + ("_4" if ne00 % 4 == 0 else "")
    ref.case(name, "kernel_" + kind,
             {0: Bytes(pack(NORM, **v)), 1: src.bytes(), 2: bufs[0], 3: bufs[1],
              4: inout(dst, y.astype(np.float32), {"rtol": 1e-5, "atol": 1e-5})},
             threadgroup=nth, threadgroups=(shape[2], shape[1], shape[0]), threadgroup_memory={0: 32 * 4})


norm("ggml_rms_norm", True, (1, 2, 3, 37))                                  # 37 threads: two SIMD-groups, one partial
norm("ggml_rms_norm_mul_4", True, (1, 1, 3, 100), fuse=[(1, 1, 1, 100)])  # float4, 25 threads
norm("ggml_norm_4", False, (1, 1, 4, 64))                                   # float4, 16 threads
norm("ggml_norm_mul_add", False, (1, 2, 3, 301), fuse=[(1, 1, 1, 301), (1, 2, 1, 301)])   # 301 threads

# ---- soft_max: kernel_soft_max_{f32,f16}[_4] (the name: the mask's type; f32 without a mask)

SOFT_MAX = cstruct(("ne00", I4), ("ne01", I4), ("ne02", I4), ("nb01", U8), ("nb02", U8), ("nb03", U8),
                   ("ne11", I4), ("ne12", I4), ("ne13", I4), ("nb11", U8), ("nb12", U8), ("nb13", U8),
                   ("nb1", U8), ("nb2", U8), ("nb3", U8), ("scale", F4), ("max_bias", F4), ("m0", F4), ("m1", F4),
                   ("n_head_log2", I4))


def soft_max(name, shape, scale, mask=None, max_bias=0.0, sinks=False):
    """softmax(x * scale + slope_h * mask) over each row; slope_h the ALiBi slope of head h (1 without max_bias);
    with sinks, each head's sink logit joins the row's maximum and sum but gets no output. mask: None or a dtype
    (f16, f32), of shape [1, 1, ne01, ne00] (broadcast over heads), -inf where a row masks a column."""
    ne03, ne02, ne01, ne00 = shape
    x = r.uniform(-4, 4, shape).astype(np.float32)
    n_head_log2 = 1 << int(math.floor(math.log2(ne02)))
    m0 = 2.0 ** (-max_bias / n_head_log2)
    m1 = 2.0 ** (-(max_bias / 2.0) / n_head_log2)
    logits = x.astype(np.float64) * scale
    bufs = {1: None, 2: Same(1), 3: Same(1)}
    v = dict(ne00=ne00, ne01=ne01, ne02=ne02, scale=scale, max_bias=max_bias, m0=np.float32(m0), m1=np.float32(m1),
             n_head_log2=n_head_log2, ne11=1, ne12=1, ne13=1)
    if mask is not None:
        mk = r.uniform(-2, 2, (1, 1, ne01, ne00)).astype(mask)
        for i in range(ne01):
            mk[0, 0, i, ne00 - 1 - 3 * i:] = -np.inf                     # a causal-like mask: later columns hidden
        mt = Tensor((1, 1, ne01, ne00), mask, pad1=4, r=r).set(mk)
        bufs[2] = mt.bytes()
        v.update(ne11=ne01, ne12=1, ne13=1, nb11=mt.nb[1], nb12=mt.nb[2], nb13=mt.nb[3])
        h = np.arange(ne02)
        slope = np.where(h < n_head_log2, np.float32(m0) ** (h + 1.0), np.float32(m1) ** (2.0 * (h - n_head_log2) + 1))
        if max_bias == 0:
            slope = np.ones(ne02)
        logits = logits + slope[None, :, None, None] * mk.astype(np.float64)
    mx = logits.max(axis=-1, keepdims=True)
    if sinks:
        sk = r.uniform(-2, 2, ne02).astype(np.float32)
        bufs[3] = sk.view(np.int8)
        mx = np.maximum(mx, sk.astype(np.float64)[None, :, None, None])
    e = np.exp(logits - mx)
    tot = e.sum(axis=-1, keepdims=True)
    if sinks:
        tot = tot + np.exp(sk.astype(np.float64)[None, :, None, None] - mx)
    want = (e / tot).astype(np.float32)
    p4 = ne00 % 4 == 0
    src = Tensor(shape, np.float32, pad1=4 if p4 else 3, r=r).set(x)
    dst = dst_like(shape, pad1=8 if p4 else 2)
    bufs[1] = src.bytes()
    v.update(nb01=src.nb[1], nb02=src.nb[2], nb03=src.nb[3], nb1=dst.nb[1], nb2=dst.nb[2], nb3=dst.nb[3])
    nth = 32
    n = ne00 // 4 if ne00 % 4 == 0 else ne00
    while nth < n and nth * ne01 * ne02 * ne03 < 256:
        nth *= 2
    kernel = "kernel_soft_max_%s%s" % ("f16" if mask == np.float16 else "f32", "_4" if ne00 % 4 == 0 else "")
    bufs[0] = Bytes(pack(SOFT_MAX, **v))
    bufs[4] = inout(dst, want, {"rtol": 1e-5, "atol": 1e-6})
    ref.case(name, kernel, bufs, threadgroup=nth, threadgroups=(ne01, ne02, ne03), threadgroup_memory={0: 32 * 4})


soft_max("ggml_soft_max_f32", (1, 1, 2, 37), 0.5)                              # no mask: src0 bound as mask and sinks
soft_max("ggml_soft_max_f16_mask", (1, 2, 3, 45), 0.25, mask=np.float16, max_bias=8.0)   # ALiBi slopes per head
soft_max("ggml_soft_max_f16_mask_4_sinks", (1, 2, 4, 64), 1.0, mask=np.float16, sinks=True)
soft_max("ggml_soft_max_f32_4_wide", (1, 1, 1, 260), 1.0)                      # 128 threads, float4

# ---- rope: kernel_rope_norm_f32, kernel_rope_neox_f32 (FC_ROPE = 800: imrope, backward)

ROPE = cstruct(*[(n, I4) for n in ("ne00", "ne01", "ne02", "ne03")], *[(n, U8) for n in ("nb00", "nb01", "nb02", "nb03")],
               *[(n, I4) for n in ("ne0", "ne1", "ne2", "ne3")], *[(n, U8) for n in ("nb0", "nb1", "nb2", "nb3")],
               ("n_past", I4), ("n_dims", I4), ("n_ctx_orig", I4), *[(n, F4) for n in (
                   "freq_base", "freq_scale", "ext_factor", "attn_factor", "beta_fast", "beta_slow")],
               *[("sect_%d" % i, I4) for i in range(4)], ("src2", "?"))


def rope(name, neox, shape, n_dims, freq_base=10000.0, freq_scale=1.0, ext_factor=0.0, attn_factor=1.0,
         n_ctx_orig=64, beta_fast=32.0, beta_slow=1.0, factors=False):
    """Rotary position embedding of x [1, tokens, heads, head_dim] at positions pos[token]: pair i of the first
    n_dims values (adjacent values 2i, 2i+1; neox: i and i + n_dims/2) turned by pos * base^(-2i/n_dims) (divided by
    a frequency factor, interpolated by YaRN: freq_scale, blended back by the ramp between the correction dims when
    ext_factor is set, magnitude scaled), the rest copied."""
    ne03, ne02, ne01, ne00 = shape
    x = r.uniform(-1, 1, shape).astype(np.float32)
    pos = r.integers(0, 20, ne02).astype(np.int32)
    ff = r.uniform(1, 4, n_dims // 2).astype(np.float32) if factors else np.ones(n_dims // 2, np.float32)

    def corr_dim(n_rot):
        return n_dims * math.log(n_ctx_orig / (n_rot * 2 * math.pi)) / (2 * math.log(freq_base))
    low = max(0.0, math.floor(corr_dim(beta_fast)))
    high = min(n_dims - 1.0, math.ceil(corr_dim(beta_slow)))
    i = np.arange(n_dims // 2)
    y = x.astype(np.float64).copy()
    for t in range(ne02):
        extrap = pos[t] * float(freq_base) ** (-2.0 * i / n_dims) / ff
        theta = freq_scale * extrap
        mscale = attn_factor
        if ext_factor != 0:
            ramp = (1 - np.clip((i - low) / max(0.001, high - low), 0, 1)) * ext_factor
            theta = theta * (1 - ramp) + extrap * ramp
            mscale = attn_factor * (1 + 0.1 * math.log(1 / freq_scale))
        c, s = np.cos(theta) * mscale, np.sin(theta) * mscale
        xt = x[0, t].astype(np.float64)
        a, b = (xt[:, i], xt[:, i + n_dims // 2]) if neox else (xt[:, 2 * i], xt[:, 2 * i + 1])
        ya, yb = a * c - b * s, a * s + b * c
        if neox:
            y[0, t][:, i], y[0, t][:, i + n_dims // 2] = ya, yb
        else:
            y[0, t][:, 2 * i], y[0, t][:, 2 * i + 1] = ya, yb
    src = Tensor(shape, np.float32, pad1=2, r=r).set(x)
    dst = dst_like(shape, pad1=1)
    v = dict(ne00=ne00, ne01=ne01, ne02=ne02, ne03=ne03, ne0=ne00, ne1=ne01, ne2=ne02, ne3=ne03, n_past=0,
             n_dims=n_dims, n_ctx_orig=n_ctx_orig, freq_base=freq_base, freq_scale=freq_scale, ext_factor=ext_factor,
             attn_factor=attn_factor, beta_fast=beta_fast, beta_slow=beta_slow, src2=factors)
    v.update(src.nbs("nb0"))
    v.update(dst.nbs("nb"))
    ref.case(name, "kernel_rope_%s_f32" % ("neox" if neox else "norm"),
             {0: Bytes(pack(ROPE, **v)), 1: src.bytes(), 2: pos.view(np.int8), 3: ff.view(np.int8) if factors else Same(1),
              4: inout(dst, y.astype(np.float32), {"rtol": 1e-5, "atol": 5e-5})},
             threadgroup=min(1024, ne00), threadgroups=(ne01, ne02, ne03),
             constants={801: Scalar("bool", False)})   # 800 (imrope) too on the host; these kernels do not use it


rope("ggml_rope_norm", False, (1, 5, 3, 12), 8)                              # 8 of 12 dims turned
rope("ggml_rope_neox_yarn", True, (1, 4, 3, 18), 14, freq_scale=0.25, ext_factor=1.0, factors=True)

# ---- get_rows f32 / f16: kernel_get_rows_f32, kernel_get_rows_f16

GET_ROWS = cstruct(("ne00t", I4), ("ne00", I4), ("nb01", U8), ("nb02", U8), ("nb03", U8), ("ne10", I4), ("nb10", U8),
                   ("nb11", U8), ("nb12", U8), ("nb1", U8), ("nb2", U8), ("nb3", U8))
assert GET_ROWS.itemsize == 88


def get_rows(name, dt, rows=7, ne00=45, batches=2, gathered=4):
    """dst[b][k] = src0[b][ids[b][k]] for each batch b (src0's dim 2 follows ids' dim 1), ids 8 bytes apart."""
    w = r.uniform(-100, 100, (1, batches, rows, ne00)).astype(dt)
    src = Tensor(w.shape, dt, pad1=3, r=r).set(w)
    ids = r.integers(0, rows, (batches, gathered)).astype(np.int32)
    ids_buf = np.zeros((batches, 2 * gathered + 1), np.int32)
    ids_buf[:, 0:2 * gathered:2] = ids
    want = np.stack([w[0, b, ids[b]] for b in range(batches)])[None].astype(np.float32)
    dst = dst_like((1, batches, gathered, ne00), pad1=2)
    v = dict(ne00t=ne00, ne00=ne00, nb01=src.nb[1], nb02=src.nb[2], nb03=src.nb[3], ne10=gathered, nb10=8,
             nb11=4 * ids_buf.shape[1], nb12=ids_buf.size * 4, nb1=dst.nb[1], nb2=dst.nb[2], nb3=dst.nb[3])
    nth = min(ne00, 1024)
    ref.case(name, "kernel_get_rows_" + ("f16" if dt == np.float16 else "f32"),
             {0: Bytes(pack(GET_ROWS, **v)), 1: src.bytes(), 2: ids_buf.reshape(-1), 3: inout(dst, want, EXACT)},
             threadgroup=nth, threadgroups=(-(-ne00 // nth) * gathered, batches, 1))


get_rows("ggml_get_rows_f32", np.float32)
get_rows("ggml_get_rows_f16", np.float16)

# ---- cpy f32 -> f16: kernel_cpy_f32_f16

CPY = cstruct(("nk0", I8), *[(n, I8) for n in ("ne00", "ne01", "ne02", "ne03")], *[(n, U8) for n in ("nb00", "nb01", "nb02", "nb03")],
              *[(n, I8) for n in ("ne0", "ne1", "ne2", "ne3")], *[(n, U8) for n in ("nb0", "nb1", "nb2", "nb3")])


def cpy_f32_f16(name, shape, dshape, transposed):
    """dst (contiguous f16, shape DSHAPE: a reshape) = src (f32) in src's element order; TRANSPOSED: src is the
    transpose of a stored [ne02][ne00][ne01] array (nb00 > nb01). Values are halves, so the conversion is exact.
    Rows shorter than the threadgroup are batched nrptg to a threadgroup (threadgroup (nk0, nrptg))."""
    ne03, ne02, ne01, ne00 = shape
    x = r.uniform(-60000, 60000, shape).astype(np.float16).astype(np.float32)
    if transposed:
        store = Tensor((ne03, ne02, ne00, ne01), np.float32, pad1=1, r=r)
        store.view[...] = x.transpose(0, 1, 3, 2)
        nb = [store.nb[1], store.nb[0], store.nb[2], store.nb[3]]
        buf = store.bytes()
    else:
        src = Tensor(shape, np.float32, pad1=0, r=r).set(x)
        nb, buf = src.nb, src.bytes()
    dst = dst_like(dshape, np.float16)
    want = x.reshape(dshape).astype(np.float16)
    nk0 = ne00
    nth = min(nk0 * ne01, 256)
    nrptg = 1
    if nth > nk0:
        nrptg = -(-nth // nk0)
        nth = nk0
        if nrptg * nth > 256:
            nrptg -= 1
    nth = min(nth, nk0)
    nw0 = -(-nk0 // nth) if nrptg == 1 else 1
    v = dict(nk0=nk0, ne00=ne00, ne01=ne01, ne02=ne02, ne03=ne03, nb00=nb[0], nb01=nb[1], nb02=nb[2], nb03=nb[3],
             ne0=dshape[3], ne1=dshape[2], ne2=dshape[1], ne3=dshape[0])
    v.update(dst.nbs("nb"))
    ref.case(name, "kernel_cpy_f32_f16", {0: Bytes(pack(CPY, **v)), 1: buf, 2: inout(dst, want, EXACT)},
             threadgroup=(nth, nrptg, 1), threadgroups=(nw0 * (ne01 + nrptg - 1) // nrptg, ne02, ne03))


cpy_f32_f16("ggml_cpy_f32_f16_transposed", (1, 2, 7, 13), (1, 2, 7, 13), True)   # threadgroups of 13 x 7
cpy_f32_f16("ggml_cpy_f32_f16_reshape", (1, 1, 2, 300), (1, 1, 4, 150), False)   # 2 threadgroups per row

# ---- argsort: kernel_argsort_f32_i32_{asc,desc} (one bitonic pass: rows up to 1024)

ARGSORT = cstruct(*[(n, I4) for n in ("ne00", "ne01", "ne02", "ne03")], *[(n, U8) for n in ("nb00", "nb01", "nb02", "nb03")],
                  *[(n, I4) for n in ("ne0", "ne1", "ne2", "ne3")], ("top_k", I4))


def argsort(name, order, shape):
    """The indices that sort each row (distinct values: one answer), padded to nth = the next power of two."""
    ne03, ne02, ne01, ne00 = shape
    x = np.stack([r.permutation(ne00) for _ in range(ne03 * ne02 * ne01)]).reshape(shape).astype(np.float32) * 0.25 - 3
    src = Tensor(shape, np.float32, pad1=3, r=r).set(x)
    want = np.argsort(x if order == "asc" else -x, axis=-1, kind="stable").astype(np.int32)
    nth = 1
    while nth < ne00 and 2 * nth <= 1024:
        nth *= 2
    v = dict(ne00=ne00, ne01=ne01, ne02=ne02, ne03=ne03, ne0=ne00, ne1=ne01, ne2=ne02, ne3=ne03, top_k=nth)
    v.update(src.nbs("nb0"))
    ref.case(name, "kernel_argsort_f32_i32_" + order,
             {0: Bytes(pack(ARGSORT, **v)), 1: src.bytes(), 2: Out(want.reshape(-1), tol=EXACT)},
             threadgroup=nth, threadgroups=(ne01, ne02, ne03), threadgroup_memory={0: (nth * 4 + 15) // 16 * 16})


argsort("ggml_argsort_asc", "asc", (1, 2, 3, 37))
argsort("ggml_argsort_desc", "desc", (1, 1, 2, 100))

# ---- sum_rows / mean: kernel_sum_rows_f32_f32[_4] (FC_SUM_ROWS = 1400: 10 sum, 11 mean)

SUM_ROWS = cstruct(*[(n, I8) for n in ("ne00", "ne01", "ne02", "ne03")], *[(n, U8) for n in ("nb00", "nb01", "nb02", "nb03")],
                   *[(n, I8) for n in ("ne0", "ne1", "ne2", "ne3")], *[(n, U8) for n in ("nb0", "nb1", "nb2", "nb3")])


def sum_rows(name, shape, mean):
    ne03, ne02, ne01, ne00 = shape
    x = dyadic(r, shape, -8, 8, 32)
    src = Tensor(shape, np.float32, pad1=4 if ne00 % 4 == 0 else 5, r=r).set(x)
    s = x.astype(np.float64).sum(axis=-1, keepdims=True)
    want = (s / ne00 if mean else s).astype(np.float32)
    dst = dst_like((ne03, ne02, ne01, 1), pad1=1)
    c4 = ne00 % 4 == 0
    v = dict(ne00=ne00 // 4 if c4 else ne00, ne01=ne01, ne02=ne02, ne03=ne03, ne0=1, ne1=ne01, ne2=ne02, ne3=ne03)
    v.update(src.nbs("nb0"))
    v.update(dst.nbs("nb"))
    nth = 32
    while nth < v["ne00"] and nth < 1024:
        nth *= 2
    nth = min(nth, v["ne00"])
    ref.case(name, "kernel_sum_rows_f32_f32" + ("_4" if c4 else ""),
             {0: Bytes(pack(SUM_ROWS, **v)), 1: src.bytes(),
              2: inout(dst, want, {"rtol": 1e-6, "atol": 0} if mean else EXACT)},
             threadgroup=nth, threadgroups=(ne01, ne02, ne03), threadgroup_memory={0: 32 * 4 * (4 if c4 else 1)},
             constants={1400: Scalar("short", 11 if mean else 10)})


sum_rows("ggml_sum_rows", (1, 2, 3, 301), False)                            # 301 threads
sum_rows("ggml_mean_4", (1, 1, 5, 100), True)                               # float4, 25 threads

if __name__ == "__main__":
    raise SystemExit(ref.main())
