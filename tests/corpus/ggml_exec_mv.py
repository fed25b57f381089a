#!/usr/bin/python3
"""ggml's matrix-vector products kernel_mul_mv_{f32,f16}_f32[_4] and kernel_mul_mv_{q4_0,q8_0,q4_K,q6_K}_f32 run
against NumPy, launched as ggml's host code launches them (ggml-metal-ops.cpp lm_ggml_metal_op_mul_mat, the
matrix-vector branch; ggml-metal-device.cpp lm_ggml_metal_library_get_pipeline_mul_mv): the lm_ggml_metal_kargs_mul_mv
struct at buffer 0, src0, src1, dst at 1-3, threadgroups of 32 x nsg threads, nr0 rows per SIMD-group or threadgroup,
function constants nsg (600), ne12 (602), r2 (603) and r3 (604), src0 broadcast over src1's batches (r2 > 1). Weights
and inputs are chosen so that every product and partial sum is exact in float (multiples of 1/8 up to 1, quantized
scales k/256): the results are compared bit for bit. src0 gets whole rows of padding past its last row, as ggml's
kernels read whole groups of rows.

    ggml_exec_mv.py OUTDIR | --list      (run by tests/run_exec.py; MTL2GLSL_GGML_DIR names the llama.rn package)
"""
import numpy as np

from ggml_ref import BLOCK, EXACT, FLASH_ATTN, cstruct, dyadic, pack, quant_rows, reference
from refcase import Bytes, Out, Scalar, rng

ref = reference()
r = rng(509)

MUL_MV = cstruct(("ne00", "i4"), ("ne01", "i4"), ("ne02", "i4"), ("nb00", "u8"), ("nb01", "u8"), ("nb02", "u8"),
                 ("nb03", "u8"), ("ne10", "i4"), ("ne11", "i4"), ("ne12", "i4"), ("nb10", "u8"), ("nb11", "u8"),
                 ("nb12", "u8"), ("nb13", "u8"), ("ne0", "i4"), ("ne1", "i4"), ("nr0", "i4"), ("r2", "i2"), ("r3", "i2"))

# (nsg, nr0, threadgroup memory, rows per threadgroup = nr0 (f32/f16/q8_0) or nr0 * nsg) per quantized type; q4_0's
# kernel declares a threadgroup buffer it does not use, which ggml sizes 0 (here the least mtlrun takes)
QUANT = {"q4_0": (2, 4, 16, 8), "q8_0": (4, 2, 32 * 4 * 2, 2), "q4_K": (2, 2, 0, 4), "q6_K": (2, 2, 0, 4)}


def mul_mv(t0, K, M, N, batches=1, r2=1):
    """dst[b][n][m] = src0[b / r2][m] . src1[b][n]: M rows of K weights (t0), N vectors per batch, src0's
    ne02 = batches / r2 matrices broadcast over src1's batches."""
    ne02 = batches // r2
    if t0 in ("f32", "f16"):
        dt = np.float32 if t0 == "f32" else np.float16
        nsg, nr0, smem = (1, 32, 0) if K < 32 else (min(4, (K + 127) // 128), 2, 32 * 4 * 2)
        suffix = "_short" if K < 32 else "_4" if K % 4 == 0 else ""
        rows_tg = nr0
        pad = 4 if K % 4 == 0 else 3                         # half4 / float4 rows start at multiples of their size
        w = dyadic(r, (ne02, M, K), -1, 1, 8, dt)
        es = np.dtype(dt).itemsize
        nb01 = es * (K + pad)
        extra = rows_tg
        buf = np.zeros((ne02 * M + extra) * (K + pad), dt)
        buf[:] = dyadic(r, buf.shape, -1, 1, 8, dt)
        for b in range(ne02):
            for m in range(M):
                o = (b * M + m) * (K + pad)
                buf[o:o + K] = w[b, m]
        src0 = buf.view(np.int8)
        wf = w.astype(np.float64)
        nb00 = es
        name = "kernel_mul_mv_%s_f32%s" % (t0, suffix)
    else:
        nsg, nr0, smem, rows_tg = QUANT[t0]
        bs, qk = BLOCK[t0]
        nblocks = K // qk
        src0, nb01, w = quant_rows(r, t0, ne02 * M, nblocks, pad=2, extra_rows=rows_tg, small=True)
        wf = w.reshape(ne02, M, K).astype(np.float64)
        nb00 = bs
        name = "kernel_mul_mv_%s_f32" % t0
    half = 0.5 if t0.endswith("_K") else 1
    x = dyadic(r, (batches, N, K), -half, half, 8)
    pad1 = 4                                                 # src1 rows padded (16 bytes: float4 loads stay aligned)
    nb11 = 4 * (K + pad1)
    nb12 = nb11 * N + 16
    xbuf = np.zeros(batches * nb12 // 4, np.float32)
    for b in range(batches):
        for n in range(N):
            o = (b * nb12 + n * nb11) // 4
            xbuf[o:o + K] = x[b, n]
    want = np.einsum("bnk,bmk->bnm", x.astype(np.float64), wf[np.arange(batches) // r2]).astype(np.float32)
    v = dict(ne00=K, ne01=M, ne02=ne02, nb00=nb00, nb01=nb01, nb02=nb01 * M, nb03=nb01 * M * ne02, ne10=K, ne11=N,
             ne12=batches, nb10=4, nb11=nb11, nb12=nb12, nb13=nb12 * batches, ne0=M, ne1=N, nr0=nr0, r2=r2, r3=1)
    fcs = {602: Scalar("short", batches), 603: Scalar("short", r2), 604: Scalar("short", 1)}
    if K >= 32:
        fcs[600] = Scalar("short", nsg)                     # (kernel_mul_mv_*_short does not read nsg)
    ref.case("ggml_mul_mv_%s_f32_%dx%dx%d_b%d" % (t0, M, N, K, batches), name,
             {0: Bytes(pack(MUL_MV, **v)), 1: src0, 2: xbuf.view(np.int8),
              3: Out(want.reshape(-1), tol=EXACT, raw=True)},
             threadgroup=(32, nsg, 1), threadgroups=(-(-M // rows_tg), N, batches),
             threadgroup_memory={0: smem} if smem else None,
             constants=fcs)


mul_mv("f32", 45, 7, 3, batches=4, r2=2)       # one SIMD-group, odd rows, src0 broadcast over pairs of batches
mul_mv("f16", 131, 5, 2)                       # two SIMD-groups, a tail past the last block of 32
mul_mv("f16", 300, 5, 2)                       # half4 rows, three SIMD-groups
mul_mv("f32", 20, 37, 2)                       # rows shorter than 32: kernel_mul_mv_f32_f32_short, 32 rows a group
mul_mv("q4_0", 160, 11, 2, batches=2)
mul_mv("q8_0", 224, 5, 3)
mul_mv("q4_K", 512, 5, 3)
mul_mv("q6_K", 512, 5, 2)

# ---- flash attention, one query row per threadgroup: kernel_flash_attn_ext_vec_f16_dk*_dv* and its reduction


def flash_attn_ext_vec(D, n_q, heads, kv_heads, n_kv):
    """softmax(scale * q . k_j + mask[q][j]) weighted sum of v_j, per query row and head, K and V f16 (heads share
    a K/V head: GQA), as ggml encodes it for fewer than 20 queries: kernel_flash_attn_ext_vec with nwg = 32
    workgroups per row writing partial sums, maxima and outputs to a scratch buffer, then
    kernel_flash_attn_ext_vec_reduce (one 1024-thread threadgroup per row) combining them into dst [q][head][D].
    n_kv is a multiple of 32 (no padding launch). The query is held as half in threadgroup memory (ggml's f16 path),
    so the reference takes half queries."""
    nwg, nsg, C = 32, 1, 32
    q = r.uniform(-1, 1, (1, heads, n_q, D)).astype(np.float16).astype(np.float32)
    k = r.uniform(-1, 1, (1, kv_heads, n_kv, D)).astype(np.float16)
    v_ = r.uniform(-1, 1, (1, kv_heads, n_kv, D)).astype(np.float16)
    mask = r.uniform(-1, 1, (1, 1, n_q + 1, n_kv)).astype(np.float16)   # ggml pads the mask's rows
    for i in range(n_q):
        mask[0, 0, i, n_kv - 5 * (i + 1):] = -np.inf
    scale = 1.0 / np.sqrt(D)
    qd, kd, vd = q.astype(np.float64), k.astype(np.float64), v_.astype(np.float64)
    want = np.zeros((1, n_q, heads, D))
    for h in range(heads):
        kvh = h // (heads // kv_heads)
        s_ = qd[0, h] @ kd[0, kvh].T * np.float32(scale) + mask[0, 0, :n_q].astype(np.float64)
        p_ = np.exp(s_ - s_.max(axis=1, keepdims=True))
        want[0, :, h] = (p_ / p_.sum(axis=1, keepdims=True)) @ vd[0, kvh]
    qb = q.reshape(-1)
    kpad = 8                                                   # K/V rows 8 halves longer (ns10, ns20 = D + 8)
    kb = np.zeros((kv_heads, n_kv, D + kpad), np.float16)
    kb[:, :, :D] = k[0]
    vb = np.zeros((kv_heads, n_kv, D + kpad), np.float16)
    vb[:, :, :D] = v_[0]
    rows = n_q * heads
    va = dict(ne01=n_q, ne02=heads, ne03=1, nb01=4 * D, nb02=4 * D * n_q, nb03=4 * D * n_q * heads, ne11=n_kv,
              ne_12_2=kv_heads, ne_12_3=1, ns10=D + kpad, nb11=2 * (D + kpad), nb12=2 * (D + kpad) * n_kv,
              nb13=2 * (D + kpad) * n_kv * kv_heads, ns20=D + kpad, nb21=2 * (D + kpad), nb22=2 * (D + kpad) * n_kv,
              nb23=2 * (D + kpad) * n_kv * kv_heads, ne31=n_q + 1, ne32=1, ne33=1, nb31=2 * n_kv,
              nb32=2 * n_kv * (n_q + 1), nb33=2 * n_kv * (n_q + 1), ne1=heads, ne2=n_q, ne3=1, scale=scale,
              max_bias=0.0, m0=1.0, m1=1.0, n_head_log2=1 << int(np.floor(np.log2(heads))), logit_softcap=0.0)
    pad128 = lambda n: -(-n // 128) * 128  # noqa: E731
    smem = -(-((pad128(D) + 4 * C + 2 * pad128(D)) * nsg * 2) // 16) * 16
    tmp = rows * D * nwg + rows * 2 * nwg
    ref.pipeline("ggml_flash_attn_ext_vec_f16_d%d_q%d_h%d_kv%d" % (D, n_q, heads, n_kv), {
        "q": qb.view(np.int8), "k": kb.reshape(-1).view(np.int8), "v": vb.reshape(-1).view(np.int8),
        "mask": mask.reshape(-1).view(np.int8), "pad": (np.int8, 64), "tmp": (np.int8, 4 * tmp),
        "dst": Out(want.astype(np.float32).reshape(-1), tol={"rtol": 1e-4, "atol": 2e-5}, raw=True)}, [
        dict(entry="kernel_flash_attn_ext_vec_f16_dk%d_dv%d" % (D, D),
             bind={0: Bytes(pack(FLASH_ATTN, **va)), 1: "q", 2: "k", 3: "v", 4: "mask", 5: "q", 6: "pad", 7: "tmp"},
             threadgroup=(32, nsg, 1), threadgroups=(n_q, heads, nwg), threadgroup_memory={0: smem},
             constants={400: Scalar("bool", True), 401: Scalar("bool", False), 402: Scalar("bool", False),
                        403: Scalar("bool", False), 404: Scalar("bool", False), 420: Scalar("int", D + kpad),
                        421: Scalar("int", D + kpad), 422: Scalar("int", nsg), 423: Scalar("int", nwg)}),
        dict(entry="kernel_flash_attn_ext_vec_reduce", bind={0: Bytes(np.int32(rows).tobytes()), 1: "tmp", 2: "dst"},
             threadgroup=(32 * nwg, 1, 1), threadgroups=(rows, 1, 1),
             constants={500: Scalar("int", D), 501: Scalar("int", nwg)})])


flash_attn_ext_vec(64, 3, 2, 1, 96)

# ---- small batches: kernel_mul_mv_ext_<t>_f32_r1_<n>, 2 to 8 rows of src1 (ggml-metal-ops.cpp's first branch)

MUL_MV_EXT = cstruct(("ne00", "i4"), ("ne01", "i4"), ("ne02", "i4"), ("nb00", "u8"), ("nb01", "u8"), ("nb02", "u8"),
                     ("nb03", "u8"), ("ne10", "i4"), ("ne11", "i4"), ("ne12", "i4"), ("nb10", "u8"), ("nb11", "u8"),
                     ("nb12", "u8"), ("nb13", "u8"), ("ne0", "i4"), ("ne1", "i4"), ("r2", "i2"), ("r3", "i2"))
R1PTG = {2: 2, 3: 3, 4: 4, 5: 5, 6: 3, 7: 4, 8: 4}    # src1 rows per threadgroup, by ne11 (the host's switch)


def mul_mv_ext(t0, K, M, N):
    """dst[n][m] = src0[m] . src1[n] for N = 2..8 rows of src1, as ggml-metal-ops.cpp launches it: nsg 2,
    nxpsg = 16 threads along a row when K % 256 == 0 and N < 3, else 8 (function constants 600-604 with ne12, r2,
    r3), ((M + r0ptg - 1) / r0ptg, (N + r1ptg - 1) / r1ptg, 1) threadgroups of 32 x 2, r0ptg = (32 / nxpsg) * 2.
    Each row's partial sums are reduced by simd_shuffle_down under `if (nxpsg >= 16)` ... `if (nxpsg >= 2)` on a
    local holding the function constant (these branches were dropped once: clang folded them with the constant's
    placeholder 0). Exact as mul_mv's cases are."""
    assert K % 128 == 0 and 2 <= N <= 8
    nsg = 2
    nxpsg = 16 if K % 256 == 0 and N < 3 else 8
    r0ptg, r1ptg = (32 // nxpsg) * nsg, R1PTG[N]
    if t0 == "f16":
        w = dyadic(r, (M, K), -1, 1, 8, np.float16)
        pad = 4                                             # half4 rows 8 bytes apart at least
        buf = dyadic(r, (M, K + pad), -1, 1, 8, np.float16)
        buf[:, :K] = w
        src0, nb00, nb01, wf = buf.reshape(-1).view(np.int8), 2, 2 * (K + pad), w.astype(np.float64)
    else:
        src0, nb01, wq = quant_rows(r, t0, M, K // BLOCK[t0][1], pad=2 if t0 == "q4_0" else 4, small=True)
        nb00, wf = BLOCK[t0][0], wq.astype(np.float64)
    half = 0.5 if t0.endswith("_K") else 1
    x = dyadic(r, (N, K), -half, half, 8)
    nb11 = 4 * (K + 4)
    xbuf = dyadic(r, N * nb11 // 4, -1, 1, 8)
    for n in range(N):
        xbuf[n * nb11 // 4:n * nb11 // 4 + K] = x[n]
    want = (x.astype(np.float64) @ wf.T).astype(np.float32)
    v = dict(ne00=K, ne01=M, ne02=1, nb00=nb00, nb01=nb01, nb02=nb01 * M, nb03=nb01 * M, ne10=K, ne11=N, ne12=1,
             nb10=4, nb11=nb11, nb12=nb11 * N, nb13=nb11 * N, ne0=M, ne1=N, r2=1, r3=1)
    ref.case("ggml_mul_mv_ext_%s_f32_r1_%d_%dx%dx%d" % (t0, r1ptg, M, N, K), "kernel_mul_mv_ext_%s_f32_r1_%d" % (t0, r1ptg),
             {0: Bytes(pack(MUL_MV_EXT, **v)), 1: src0, 2: xbuf.view(np.int8),
              3: Out(want.reshape(-1), tol=EXACT, raw=True)},
             threadgroup=(32, nsg, 1), threadgroups=(-(-M // r0ptg), -(-N // r1ptg), 1),
             constants={600: Scalar("short", nsg), 601: Scalar("short", nxpsg), 602: Scalar("short", 1),
                        603: Scalar("short", 1), 604: Scalar("short", 1)})


mul_mv_ext("f16", 256, 21, 2)                   # nxpsg 16: reductions over 16 lanes, 4 rows per threadgroup
mul_mv_ext("q4_0", 256, 21, 3)                  # nxpsg 8, rows past the end (row 0 read again), r1ptg 3
mul_mv_ext("q4_K", 256, 13, 5)                  # the float4x4 path (kernel_mul_mv_ext_q4x4_f32_impl), r1ptg 5

if __name__ == "__main__":
    raise SystemExit(ref.main())
