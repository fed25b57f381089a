#!/usr/bin/python3
"""MLX's fused attention on SIMD-group matrices (kernels/steel/attn/kernels/steel_attention.metal, launched by
sdpa_full_self_attention_metal in mlx/backend/metal/scaled_dot_product_attention.cpp) against NumPy:
O = softmax(scale * Q @ K.T + mask) @ V per batch and head, with grouped-query heads (H / H_kv query heads share
one K, V head), a causal mask (function constant do_causal: query i sees keys j <= i + kL - qL), a boolean or an
additive mask array (has_mask, broadcast over batch and heads by its strides), and attention sinks (has_sinks: one
logit per head that joins every row's softmax without a value).

The host takes this route for query sequences longer than 8 with head dims 64, 72, 80, 96 or 128 (192 and 256 go
to the unfused path), on GPUs without NAX: `steel_attention_<T>_bq32_bk<32, or 16 from D 128>_bd<D>_wm4_wn1_mask
<mask type, or T>`, Q, K, V 0-2, O 3, AttnParams 4, AttnMaskParams 5 and the mask 6 (has_mask), sinks 7
(has_sinks); function constants align_Q 200 and align_K 201 (qL, kL multiples of bq, bk), has_mask 300,
do_causal 301, has_sinks 302. Threadgroups (32, 4, 1), grid (ceil(qL / 32), H, B). O is written as MLX allocates
it, (B, qL, H, D) in memory (strides qL * H * D, D, H * D); Q may come transposed the same way (a (B, L, H, D)
array viewed as (B, H, L, D)), K and V row-contiguous.

The kernel runs the softmax online in float (exp2 of scores scaled by log2(e)); NumPy computes it in float64 from
the same inputs (values k / 8 in T): float32 within 2e-5 relative, half and bfloat16 outputs within a few units
of their precision."""
import struct

import numpy as np

from mlxcase import BF16, F16, F32_TRANSCENDENTAL, TNAME, Bytes, Out, reference, rng, to_bf16
from refcase import Scalar

ref = reference("steel/attn/kernels/steel_attention.metal")
r = rng(1505)
TOL = {np.float32: F32_TRANSCENDENTAL, np.float16: F16, "bf16": BF16}


def buffer(v, dt):
    return to_bf16(v.astype(np.float32)) if dt == "bf16" else v.astype(dt)


def values(shape, dt, scale=8):
    """Values k / SCALE, |k| <= 8, exact in T: (float64, the buffer)."""
    v = r.integers(-8, 9, shape) / float(scale)
    return v, buffer(v, dt)


def attn_params(B, H, D, qL, kL, gqa, scale, NQ, NK, NQa, NKa, qrem, krem, qoff, qs, ks, vs, os_):
    """mlx::steel::AttnParams (steel/attn/params.h): 6 ints, float scale, 7 ints, then 4 x 3 int64 strides."""
    return struct.pack("<6if7i12q", B, H, D, qL, kL, gqa, scale, NQ, NK, NQa, NKa, qrem, krem, qoff,
                       *qs, *ks, *vs, *os_)


def case(dt, B, H, qL, kL, D=64, H_kv=None, causal=False, mask=None, sinks=False, q_transposed=False, width=8):
    """MASK None, 'bool' or 'add' (an additive mask of T), of shape (qL, kL) broadcast over batch and heads."""
    H_kv = H_kv or H
    gqa = H // H_kv
    assert qL > 8 and D in (64, 72, 80, 96, 128) and H % H_kv == 0
    assert not causal or qL <= kL
    bq, bk = 32, (32 if D < 128 else 16)
    q64, _ = values((B, qL, H, D) if q_transposed else (B, H, qL, D), dt)
    q_view = np.transpose(q64, (0, 2, 1, 3)) if q_transposed else q64
    Q = buffer(q64, dt)
    k64, K = values((B, H_kv, kL, D), dt)
    v64, V = values((B, H_kv, kL, D), dt, scale=4)
    scale = float(np.float32(1.0 / np.sqrt(D)))  # the host's float scale, as given
    kq = np.repeat(k64, gqa, axis=1)            # query head h reads K, V head h / gqa
    vq = np.repeat(v64, gqa, axis=1)
    s = scale * np.einsum("bhqd,bhkd->bhqk", q_view, kq)
    if causal:
        keep = np.arange(kL)[None, :] <= np.arange(qL)[:, None] + (kL - qL)
        s = np.where(keep, s, -np.inf)
    m_buf = None
    if mask == "bool":
        keep = r.random((qL, kL)) < 0.7
        keep[np.arange(qL), r.integers(0, kL, qL)] = True   # no row masked whole
        s = np.where(keep, s, -np.inf)
        m_buf = keep.astype(np.bool_)
    elif mask == "add":
        m64, m_buf = values((qL, kL), dt, scale=2)
        s = s + m64
    sink64 = None
    if sinks:
        sink64, sink_buf = values((H,), dt, scale=4)
        s = np.concatenate([np.broadcast_to(sink64[None, :, None, None], (B, H, qL, 1)), s], axis=-1)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    if sinks:
        p = p[..., 1:]
    o = np.einsum("bhqk,bhkd->bhqd", p, vq)
    want = buffer(np.transpose(o, (0, 2, 1, 3)), dt).reshape(-1)   # (B, qL, H, D) in memory

    NQ, NK = -(-qL // bq), -(-kL // bk)
    NQa, NKa = qL // bq, kL // bk
    qs = (qL * H * D, D, H * D) if q_transposed else (H * qL * D, qL * D, D)
    ks = (H_kv * kL * D, kL * D, D)
    os_ = (qL * H * D, D, H * D)
    params = attn_params(B, H, D, qL, kL, gqa, scale, NQ, NK, NQa, NKa, qL - NQa * bq,
                         kL - NKa * bk, kL - qL, qs, ks, ks, os_)
    bufs = {0: Q.reshape(-1), 1: K.reshape(-1), 2: V.reshape(-1),
            3: Out(want, tol=TOL[dt], bf16=dt == "bf16"), 4: Bytes(params)}
    has_mask = mask is not None
    if has_mask:   # a (qL, kL) mask broadcast to (B, H, qL, kL): strides 0, 0, kL
        bufs[5] = Bytes(struct.pack("<3q", 0, 0, kL))
        bufs[6] = m_buf.reshape(-1)
    if sinks:
        bufs[7] = sink_buf.reshape(-1)
    consts = {200: Scalar("bool", qL % bq == 0), 201: Scalar("bool", kL % bk == 0), 300: Scalar("bool", has_mask),
              301: Scalar("bool", causal), 302: Scalar("bool", sinks)}
    tname = TNAME[dt]
    entry = "steel_attention_%s_bq%d_bk%d_bd%d_wm4_wn1_mask%s" % (tname, bq, bk, D,
                                                                 "bool_" if mask == "bool" else tname)
    name = "mlx_attn_%s_b%dh%d%s_q%dk%dd%d%s%s%s%s%s" % (
        tname, B, H, "kv%d" % H_kv if H_kv != H else "", qL, kL, D, "_causal" if causal else "",
        "_mask" + mask if mask else "", "_sinks" if sinks else "", "_qt" if q_transposed else "",
        "_w%d" % width if width != 8 else "")
    ref.case(name, entry, bufs, threadgroup=(32, 4, 1), threadgroups=(NQ, H, B), constants=consts, width=width)


case(np.float32, 1, 2, 40, 50)                                  # neither length a multiple of its block
case(np.float16, 1, 2, 40, 56, causal=True, q_transposed=True)  # causal, queries at the end of the keys
case(np.float32, 2, 4, 33, 40, H_kv=2, mask="add", width=32)     # GQA 2, an additive mask, a batch
case("bf16", 1, 4, 20, 45, H_kv=1, mask="bool", sinks=True)     # bool mask, sinks, GQA 4
case(np.float16, 1, 1, 32, 64, D=128)                           # D 128 (bk 16), aligned: align_Q, align_K
case(np.float32, 1, 1, 64, 64, D=80, causal=True)               # D 80, causal on the diagonal, aligned

if __name__ == "__main__":
    raise SystemExit(ref.main())
