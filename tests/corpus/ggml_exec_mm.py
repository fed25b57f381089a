#!/usr/bin/python3
"""ggml's SIMD-group matrix kernels run against NumPy: flash attention (kernel_flash_attn_ext_f16_dk*_dv*, the
8x8-matrix version ggml runs for 20 queries or more, or for head sizes that are not multiples of 32, with the
kernels the host encodes before it: kernel_flash_attn_ext_pad and kernel_flash_attn_ext_blk), the matrix-matrix
products of quantized weights (kernel_mul_mm_{q4_0,q8_0,q4_K}_f32) and the mixture-of-experts product
kernel_mul_mm_id (with its routing kernel kernel_mul_mm_id_map0). Each is launched as ggml-metal-ops.cpp and
ggml-metal-device.cpp launch it: argument structs laid out as ggml-metal-impl.h declares them, buffers at the
host's indices, function constants, threadgroup memory and grids as the host computes them; the host's scratch
regions (K/V padding, the mask's block map, the expert maps) are scratch buffers here, poisoned before the run.

    ggml_exec_mm.py OUTDIR | --list      (run by tests/run_exec.py; MTL2GLSL_GGML_DIR names the llama.rn package)
"""
import numpy as np

from ggml_ref import BLOCK, EXACT, FLASH_ATTN, cstruct, dyadic, pack, quant_rows, reference
from refcase import Bytes, InOut, Out, Scalar, rng

ref = reference()
r = rng(1021)

# ---- flash attention with 8x8 SIMD-group matrices: kernel_flash_attn_ext_f16_dk*_dv*

FA_PAD = cstruct(("ne11", "i4"), ("ne_12_2", "i4"), ("ne_12_3", "i4"), ("nb11", "u8"), ("nb12", "u8"), ("nb13", "u8"),
                 ("nb21", "u8"), ("nb22", "u8"), ("nb23", "u8"), ("ne31", "i4"), ("ne32", "i4"), ("ne33", "i4"),
                 ("nb31", "u8"), ("nb32", "u8"), ("nb33", "u8"))
FA_BLK = cstruct(("ne01", "i4"), ("ne30", "i4"), ("ne31", "i4"), ("ne32", "i4"), ("ne33", "i4"), ("nb31", "u8"),
                 ("nb32", "u8"), ("nb33", "u8"))

NQPTG, NCPSG = 8, 64              # OP_FLASH_ATTN_EXT_NQPSG, OP_FLASH_ATTN_EXT_NCPSG (ggml-metal-impl.h)


def pad_to(n, m):
    return -(-n // m) * m


def flash_attn_ext(D, n_q, heads, kv_heads, n_kv, mask=None, sinks=False, softcap=0.0):
    """out[q][h] = softmax_j(s_qj) . v_j with s_qj = scale * q . k_j (or softcap * tanh(scale / softcap * q . k_j))
    plus mask[q][j], over the keys j of K/V head h / (heads / kv_heads) (GQA), a sink logit per head added to the
    softmax's denominator when SINKS; K, V f16, Q f32 held as half by the kernel (so the reference takes half
    queries), scores, softmax and the output accumulated in float. MASK: 'blocks' gives the first tile of 8 queries
    an all -inf first block of 64 keys (the block map says skip), the second an all-zero one (the map says: no
    mask to add), the third random values, -inf tails and one query with every key masked (ggml writes 0 for
    it); the mask's rows past n_q (read by the block scan) hold finite junk. Launched as the host does: n_kv not
    a multiple of 64, so kernel_flash_attn_ext_pad first copies the last partial block of K, V and the mask into
    the padding area, kernel_flash_attn_ext_blk classifies the mask's 8 x 64 blocks (with a mask), then the
    attention kernel runs ((n_q + 7) / 8, heads, 1) threadgroups of 32 x 4 (nsg 4 for head sizes under 512)."""
    nsg = 4
    kpad, qpad = 8, 4                                     # K/V rows 8 halves longer (ns10 = D + 8), Q rows 4 floats
    q = r.uniform(-1, 1, (heads, n_q, D)).astype(np.float16).astype(np.float32)
    k = r.uniform(-1, 1, (kv_heads, n_kv, D)).astype(np.float16)
    v = r.uniform(-1, 1, (kv_heads, n_kv, D)).astype(np.float16)
    scale = np.float32(1.0 / np.sqrt(D))
    m = np.zeros((n_q, n_kv), np.float16)
    if mask == "blocks":
        assert n_q > 2 * NQPTG and n_kv > NCPSG
        m[:] = r.uniform(-1, 1, m.shape).astype(np.float16)
        m[0:8, :NCPSG] = -np.inf
        m[8:16, :NCPSG] = 0
        for i in range(n_q):
            m[i, n_kv - 1 - (7 * i) % 23:] = -np.inf      # -inf tails of different lengths
        m[n_q - 1, :] = -np.inf
    qd, kd, vd = q.astype(np.float64), k.astype(np.float64), v.astype(np.float64)
    sink = r.uniform(-1, 1, heads).astype(np.float32)
    want = np.zeros((n_q, heads, D))
    for h in range(heads):
        kvh = h // (heads // kv_heads)
        s = qd[h] @ kd[kvh].T
        if softcap:
            s = np.float64(np.float32(softcap)) * np.tanh(s * np.float64(np.float32(scale / np.float32(softcap))))
        else:
            s = s * np.float64(scale)
        s = s + m.astype(np.float64)
        with np.errstate(invalid="ignore"):
            mx = np.max(s, axis=1, keepdims=True)
            if sinks:
                mx = np.maximum(mx, sink[h])
            mx = np.where(np.isfinite(mx), mx, 0)
            p = np.exp(s - mx)
            den = p.sum(axis=1, keepdims=True) + (np.exp(sink[h] - mx) if sinks else 0)
            want[:, h] = np.where(den > 0, (p @ vd[kvh]) / np.where(den > 0, den, 1), 0)
    # buffers laid out with ggml's strides
    nb01 = 4 * (D + qpad)
    qb = np.zeros((heads, n_q, D + qpad), np.float32)
    qb[:, :, :D] = q
    qb[:, :, D:] = 7.0                                    # row padding the kernel must not read
    nb11 = 2 * (D + kpad)
    kb = np.full((kv_heads, n_kv, D + kpad), 9, np.float16)
    kb[:, :, :D] = k
    vb = np.full((kv_heads, n_kv, D + kpad), 9, np.float16)
    vb[:, :, :D] = v
    has_mask = mask is not None
    extra_rows = pad_to(n_q, NQPTG) - n_q                 # the block scan reads whole tiles of 8 rows
    mb = r.uniform(-4, 4, (n_q + extra_rows, n_kv)).astype(np.float16)
    mb[:n_q] = m
    ne31, ne32, ne33 = (n_q, 1, 1) if has_mask else (0, 0, 0)
    nb31 = 2 * n_kv if has_mask else 0
    kv = dict(ne11=n_kv, ne_12_2=kv_heads, ne_12_3=1, nb11=nb11, nb12=nb11 * n_kv, nb13=nb11 * n_kv * kv_heads,
              nb21=nb11, nb22=nb11 * n_kv, nb23=nb11 * n_kv * kv_heads, ne31=ne31, ne32=ne32, ne33=ne33,
              nb31=nb31, nb32=nb31 * ne31, nb33=nb31 * ne31)
    has_kvpad = n_kv % NCPSG != 0
    assert has_kvpad, "the cases run the padding kernel"
    pad_bytes = NCPSG * (nb11 * kv_heads + nb11 * kv_heads + (2 * ne31 * ne32 * ne33 if has_mask else 0))
    nblk1, nblk0 = -(-n_q // NQPTG), -(-n_kv // NCPSG)
    blk_bytes = pad_to(nblk0 * nblk1 * ne32 * ne33, 32) if has_mask else 32
    blk = np.full(blk_bytes, 77, np.int8)                # the block map: 0 all -inf, 2 all zero, 1 otherwise
    for i1 in range(nblk1):
        for i0 in range(nblk0):
            b = mb[NQPTG * i1:NQPTG * (i1 + 1), NCPSG * i0:NCPSG * (i0 + 1)].astype(np.float32)
            full = NCPSG * (i0 + 1) <= n_kv
            blk[i1 * nblk0 + i0] = 1 if not full or (b.max() > -65504 and not (b == 0).all()) else \
                0 if b.max() <= -65504 else 2
    softcap = np.float32(softcap)
    n_head_log2 = 1 << int(np.floor(np.log2(heads)))
    fa = dict(ne01=n_q, ne02=heads, ne03=1, nb01=nb01, nb02=nb01 * n_q, nb03=nb01 * n_q * heads, ns10=D + kpad,
              ns20=D + kpad, ne1=heads, ne2=n_q, ne3=1, scale=scale / softcap if softcap else scale, max_bias=0.0,
              m0=1.0, m1=1.0, n_head_log2=n_head_log2, logit_softcap=softcap, **kv)
    smem = pad_to((NQPTG * (D + 2 * pad_to(D, 64) + 2 * (2 * NCPSG))) * 2, 16)     # FATTN_SMEM(nsg), f16 K/V
    buffers = {"q": qb.reshape(-1).view(np.int8), "k": kb.reshape(-1).view(np.int8),
               "v": vb.reshape(-1).view(np.int8), "mask": mb.reshape(-1).view(np.int8),
               "sinks": sink.view(np.int8), "pad": (np.int8, pad_bytes), "blk": InOut(np.full(blk_bytes, 77, np.int8), blk, tol=EXACT) if has_mask else (np.int8, blk_bytes),
               "dst": Out(want.astype(np.float32).reshape(-1), tol={"rtol": 1e-4, "atol": 2e-5}, raw=True)}
    launches = [dict(entry="kernel_flash_attn_ext_pad",
                     bind={0: Bytes(pack(FA_PAD, **kv)), 1: "k", 2: "v", 3: "mask" if has_mask else "q", 4: "pad"},
                     threadgroup=(32, 1, 1), threadgroups=(NCPSG, max(kv_heads, ne32), max(1, ne33)),
                     constants={100: Scalar("bool", has_mask), 125: Scalar("int", NCPSG)})]
    if has_mask:
        launches.append(dict(entry="kernel_flash_attn_ext_blk",
                             bind={0: Bytes(pack(FA_BLK, ne01=n_q, ne30=n_kv, ne31=ne31, ne32=ne32, ne33=ne33,
                                                 nb31=nb31, nb32=nb31 * ne31, nb33=nb31 * ne31)),
                                   1: "mask", 2: "blk"},
                             threadgroup=(32, 1, 1), threadgroups=(nblk0, nblk1, ne32 * ne33),
                             constants={224: Scalar("int", NQPTG), 225: Scalar("int", NCPSG)}))
    launches.append(dict(entry="kernel_flash_attn_ext_f16_dk%d_dv%d" % (D, D),
                         bind={0: Bytes(pack(FLASH_ATTN, **fa)), 1: "q", 2: "k", 3: "v", 4: "mask" if has_mask else "q",
                               5: "sinks" if sinks else "q", 6: "pad", 7: "blk", 8: "dst"},
                         threadgroup=(32, nsg, 1), threadgroups=(nblk1, heads, 1), threadgroup_memory={0: smem},
                         constants={300: Scalar("bool", has_mask), 301: Scalar("bool", sinks),
                                    302: Scalar("bool", False), 303: Scalar("bool", bool(softcap)),
                                    304: Scalar("bool", has_kvpad), 310: Scalar("bool", has_mask and ne31 % 8 != 0),
                                    320: Scalar("int", D + kpad), 321: Scalar("int", D + kpad),
                                    322: Scalar("int", nsg)}))
    name = "ggml_flash_attn_ext_f16_d%d_q%d_h%d_kv%d%s%s%s" % (D, n_q, heads, n_kv, "_mask" if has_mask else "",
                                                             "_sinks" if sinks else "", "_softcap" if softcap else "")
    ref.pipeline(name, buffers, launches)


flash_attn_ext(64, 20, 4, 2, 96, mask="blocks")           # 3 tiles of queries (the last partial), GQA 2:1
flash_attn_ext(72, 5, 2, 2, 70, sinks=True, softcap=2.5)  # DK % 16 != 0, DV > 64, no mask: padded keys -MAXHALF

# ---- matrix-matrix products of quantized weights: kernel_mul_mm_<q>_f32 and kernel_mul_mm_id_<q>_f32

MUL_MM = cstruct(("ne00", "i4"), ("ne02", "i4"), ("nb01", "u8"), ("nb02", "u8"), ("nb03", "u8"), ("ne12", "i4"),
                 ("nb10", "u8"), ("nb11", "u8"), ("nb12", "u8"), ("nb13", "u8"), ("ne0", "i4"), ("ne1", "i4"),
                 ("r2", "i2"), ("r3", "i2"))


def activations(batches, rows, K, pad=4):
    """BATCHES x ROWS rows of K multiples of 1/8 up to 1 (exact in half, as the kernels hold them), in a float32
    buffer with rows PAD floats longer and planes 16 bytes apart; returns (buffer, x, nb11, nb12)."""
    x = dyadic(r, (batches, rows, K), -1, 1, 8)
    nb11 = 4 * (K + pad)
    nb12 = nb11 * rows + 16
    buf = dyadic(r, batches * nb12 // 4, -1, 1, 8)
    for b in range(batches):
        for n in range(rows):
            o = (b * nb12 + n * nb11) // 4
            buf[o:o + K] = x[b, n]
    return buf, x, nb11, nb12


# weight rows this many bytes longer than their blocks: blocks at byte offsets that are not multiples of their size,
# at their alignment (block_q4_K's is 4: its d and dmin are a union with a half2)
QPAD = {"q4_0": 2, "q8_0": 2, "q4_K": 4}
# Both kernels store the rows of an edge tile as float4 at dst + row * ne0 floats: for ne0 % 4 != 0 (the cases with
# M = 67 and 66) most of those float4 are off 16-byte alignment, and land where the floats are meant (they landed up
# to 3 floats early before mtl2glsl kept such offsets in floats, without an error)


def mul_mm_q(t0, M, N, K, batches=1, r2=1):
    """dst[b][n][m] = src0[b / r2][m] . src1[b][n] with src0 M rows of K quantized weights (t0) broadcast over
    src1's batches (r2), src1 N rows of K f32, launched as ggml-metal-ops.cpp does for more than 8 rows of src1:
    ((N + 31) / 32, (M + 63) / 64, batches) threadgroups of 32 x 4 threads, 8192 bytes of threadgroup memory when
    the output needs bounds checks (M % 64 or N % 32), function constants bc_inp (K % 32: never, for blocks of 32
    or 256), bc_out, ne12, r2, r3. The kernel dequantizes the weights into half and converts src1 to half: scales
    k/256 (k < 16; q4_K's below 8) keep every weight exact in half, the inputs are multiples of 1/8, every product
    and sum is exact in float, and the result is compared bit for bit. Weight rows are 2 bytes longer than their
    blocks (q4_K's 4 bytes: QPAD)."""
    bs, qk = BLOCK[t0]
    ne02 = batches // r2
    src0, nb01, w = quant_rows(r, t0, ne02 * M, K // qk, pad=QPAD[t0], small=True, exact_half=True)
    assert (w.astype(np.float16).astype(np.float32) == w).all()
    w = w.reshape(ne02, M, K).astype(np.float64)
    xbuf, x, nb11, nb12 = activations(batches, N, K)
    want = np.einsum("bnk,bmk->bnm", x.astype(np.float64), w[np.arange(batches) // r2]).astype(np.float32)
    bc_out = M % 64 != 0 or N % 32 != 0
    v = dict(ne00=K, ne02=ne02, nb01=nb01, nb02=nb01 * M, nb03=nb01 * M * ne02, ne12=batches, nb10=4, nb11=nb11,
             nb12=nb12, nb13=nb12 * batches, ne0=M, ne1=N, r2=r2, r3=1)
    ref.case("ggml_mul_mm_%s_f32_%dx%dx%d_b%d" % (t0, M, N, K, batches), "kernel_mul_mm_%s_f32" % t0,
             {0: Bytes(pack(MUL_MM, **v)), 1: src0, 2: xbuf.view(np.int8),
              3: Out(want.reshape(-1), tol=EXACT, raw=True)},
             threadgroup=(32, 4, 1), threadgroups=(-(-N // 32), -(-M // 64), batches),
             threadgroup_memory={0: 8192 if bc_out else 4096 + 2048},
             constants={700: Scalar("bool", K % 32 != 0), 701: Scalar("bool", bc_out), 702: Scalar("short", batches),
                        704: Scalar("short", r2), 705: Scalar("short", 1)})


MUL_MM_ID_MAP0 = cstruct(("ne02", "i4"), ("ne10", "i4"), ("ne11", "i4"), ("nb11", "u8"), ("nb12", "u8"), ("ne21", "i4"),
                         ("ne20", "i4"), ("nb21", "u8"))
MUL_MM_ID = cstruct(("ne00", "i4"), ("ne02", "i4"), ("nb01", "u8"), ("nb02", "u8"), ("nb03", "u8"), ("ne11", "i4"),
                    ("nb10", "u8"), ("nb11", "u8"), ("nb12", "u8"), ("nb13", "u8"), ("ne20", "i4"), ("ne21", "i4"),
                    ("ne0", "i4"), ("ne1", "i4"), ("r2", "i2"), ("r3", "i2"))


def mul_mm_id(t0, experts, M, K, used, tokens):
    """A mixture of experts' product: dst[t][u] = src0[ids[t][u]] . src1[t][u] for each token t and each of its
    USED experts, as ggml-metal-ops.cpp encodes it for 32 tokens or more: kernel_mul_mm_id_map0_ne20_<used> (one
    threadgroup of one thread per expert, 2 bytes of threadgroup memory per expert and slot) lists each expert's
    (token, slot) pairs and counts them into scratch buffers, then kernel_mul_mm_id_<t0>_f32 runs
    ((tokens + 31) / 32, (M + 63) / 64, experts) threadgroups of 128 threads with 8192 bytes of threadgroup memory
    over the lists (function constant bc_inp). Expert 0 serves more than 32 tokens (two column tiles), the last
    expert none (its threadgroups return at once). Exact as kernel_mul_mm_<q>_f32's cases are."""
    bs, qk = BLOCK[t0]
    src0, nb01, w = quant_rows(r, t0, experts * M, K // qk, pad=QPAD[t0], small=True, exact_half=True)
    w = w.reshape(experts, M, K).astype(np.float64)
    ids = np.zeros((tokens, used), np.int32)
    for t in range(tokens):
        first = 0 if t % 8 else r.integers(1, experts - 1)        # expert 0 in 7 of every 8 tokens
        rest = r.permutation([e for e in range(experts - 1) if e != first])[:used - 1]
        ids[t] = r.permutation(np.concatenate([[first], rest]))
    assert (ids == 0).sum() > 32 and not (ids == experts - 1).any()
    nb21 = 4 * used + 8                                       # ids rows padded
    ids_buf = np.full((tokens, nb21 // 4), -1, np.int32)
    ids_buf[:, :used] = ids
    xbuf, x, nb11, nb12 = activations(tokens, used, K)       # src1: one row per token and slot (ne11 = used)
    want = np.zeros((tokens, used, M), np.float32)
    for t in range(tokens):
        for u in range(used):
            want[t, u] = (w[ids[t, u]] @ x[t, u].astype(np.float64)).astype(np.float32)
    m0 = dict(ne02=experts, ne10=K, ne11=used, nb11=nb11, nb12=nb12, ne21=tokens, ne20=used, nb21=nb21)
    mm = dict(ne00=K, ne02=experts, nb01=nb01, nb02=nb01 * M, nb03=nb01 * M * experts, ne11=used, nb10=4, nb11=nb11,
              nb12=nb12, nb13=nb12 * tokens, ne20=used, ne21=tokens, ne0=M, ne1=used, r2=1, r3=1)
    ref.pipeline("ggml_mul_mm_id_%s_f32_e%d_%dx%d_u%d_t%d" % (t0, experts, M, K, used, tokens), {
        "src0": src0, "src1": xbuf.view(np.int8), "ids": ids_buf.reshape(-1).view(np.int8),
        "tpe": (np.int8, 4 * experts), "hids": (np.int8, 4 * experts * tokens),
        "dst": Out(want.reshape(-1), tol=EXACT, raw=True)}, [
        dict(entry="kernel_mul_mm_id_map0_ne20_%d" % used,
             bind={0: Bytes(pack(MUL_MM_ID_MAP0, **m0)), 1: "ids", 2: "tpe", 3: "hids"},
             threadgroup=(experts, 1, 1), threadgroups=(1, 1, 1), threadgroup_memory={0: 2 * experts * used}),
        dict(entry="kernel_mul_mm_id_%s_f32" % t0,
             bind={0: Bytes(pack(MUL_MM_ID, **mm)), 1: "src0", 2: "src1", 3: "tpe", 4: "hids", 5: "dst"},
             threadgroup=(128, 1, 1), threadgroups=(-(-tokens // 32), -(-M // 64), experts),
             threadgroup_memory={0: 8192}, constants={700: Scalar("bool", K % 32 != 0)})])

mul_mm_q("q4_0", 72, 40, 96, batches=2, r2=2)              # one weight matrix for two batches of src1
mul_mm_q("q8_0", 68, 33, 64)
mul_mm_q("q4_K", 40, 36, 256)
mul_mm_q("q8_0", 67, 33, 64)                               # rows of dst 67 floats apart
mul_mm_id("q4_0", 4, 68, 64, 2, 40)
mul_mm_id("q4_0", 4, 66, 64, 2, 40)                        # rows 66 floats apart

if __name__ == "__main__":
    raise SystemExit(ref.main())
