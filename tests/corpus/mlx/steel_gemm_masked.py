#!/usr/bin/python3
"""MLX's block-masked GEMM on SIMD-group matrices (kernels/steel/gemm/kernels/steel_gemm_masked.metal, launched by
BlockMaskedMM::eval_gpu in mlx/backend/metal/matmul.cpp for block_masked_mm) against NumPy:
D = ((A * lhs_mask) @ (B * rhs_mask)) * out_mask, each mask one value per block_size x block_size block (of
D: ceil(M / bs) x ceil(N / bs); of A: ceil(M / bs) x ceil(K / bs); of B: ceil(K / bs) x ceil(N / bs)), boolean
(a false block is zero) or of the operands' type (a factor). Operand masks come in pairs; either kind may be
absent (nomask).

`steel_gemm_block_outmask_<bool_|T|nomask>_opmask_<bool_|T|nomask>_<nn|nt|tn|tt>_<T>_<T>_bm<bs>_bn<bs>_bk16_wm2
_wn2_MN_<t|n>aligned_K_<t|n>aligned` for block sizes 32 and 64 (M, N, K not 1: smaller ones go to the masked
gemv). Buffers: A 0, B 1, D 3, GEMMParams 4, batch shape 6, batch strides 7 (the batch strides of every input in
order: A, B, the output mask, lhs and rhs masks; one 0 for each without a batch), the masks 10-12 (out, lhs,
rhs) and their strides 13 (for each mask present: its last stride, then the one before). Threadgroups (32, 2, 2),
grid (ceil(N / bs), ceil(M / bs), batch); the host binds nothing for an absent mask, which the kernel does not
read (here a zero word, as mtlrun binds every buffer).

Inputs are multiples of 1/8 and mask factors powers of two (or 0, -1): every product and sum is exact in float,
and the kernel scales the operand tiles in T and the result in float; half and bfloat16 outputs are rounded once:
compared exactly."""
import numpy as np

from mlxcase import EXACT, TNAME, Bytes, Out, float_buffer, gemm_params, i32, i64, reference, rng

ref = reference("steel/gemm/kernels/steel_gemm_masked.metal")
r = rng(1506)


def mask(shape, kind, dt):
    """A block mask of SHAPE: (its float64 factors, the buffer). 'bool': about a third false; 'T': factors from
    0, -1, 0.5, 1, 2."""
    if kind == "bool":
        m = r.random(shape) < 0.7
        return m.astype(np.float64), m.astype(np.bool_)
    f = r.choice([0.0, -1.0, 0.5, 1.0, 1.0, 2.0], size=shape)
    return f, float_buffer(f, dt)


def expand(m, bs, rows, cols):
    """A per-block mask as one value per element of a ROWS x COLS matrix (batch axes kept)."""
    return np.repeat(np.repeat(m, bs, axis=-2), bs, axis=-1)[..., :rows, :cols]


def case(dt, bs, M, N, K, out_mask=None, op_mask=None, ta=False, tb=False, batch=(), width=8):
    """OUT_MASK, OP_MASK: None, 'bool' or 'T'. BATCH: the batch shape of every input (row-contiguous)."""
    assert min(M, N) > 1 and bs in (32, 64)
    tm, tn, tk = -(-M // bs), -(-N // bs), -(-K // bs)
    a64 = r.integers(-8, 9, batch + ((K, M) if ta else (M, K))) / 8.0
    b64 = r.integers(-8, 9, batch + ((N, K) if tb else (K, N))) / 8.0
    a_mat = np.swapaxes(a64, -1, -2) if ta else a64
    b_mat = np.swapaxes(b64, -1, -2) if tb else b64
    masks = {}
    if out_mask:
        masks[10] = mask(batch + (tm, tn), out_mask, dt)
    if op_mask:
        masks[11] = mask(batch + (tm, tk), op_mask, dt)
        masks[12] = mask(batch + (tk, tn), op_mask, dt)
    if op_mask:
        a_mat = a_mat * expand(masks[11][0], bs, M, K)
        b_mat = b_mat * expand(masks[12][0], bs, K, N)
    want = np.matmul(a_mat, b_mat)
    if out_mask:
        want = want * expand(masks[10][0], bs, M, N)
    want = float_buffer(want, dt).reshape(-1)

    nb = int(np.prod(batch)) if batch else 1
    bshape = list(batch) if batch else [1]
    # batch strides of each input in order (A, B, out mask, lhs mask, rhs mask), or one 0 each without a batch
    arrays = [a64, b64] + [masks[i][1] for i in sorted(masks)]
    if batch:
        bstrides = []
        for arr in arrays:
            s = [st // arr.itemsize for st in np.ascontiguousarray(arr).strides[:-2]]
            bstrides += s
        a_bs, b_bs = bstrides[len(batch) - 1], bstrides[2 * len(batch) - 1]
    else:
        bstrides = [0] * len(arrays)
        a_bs = b_bs = 0
    mstrides = []
    for i in sorted(masks):
        m = np.ascontiguousarray(masks[i][1])
        mstrides += [m.strides[-1] // m.itemsize, m.strides[-2] // m.itemsize]
    params = gemm_params(M, N, K, M if ta else K, K if tb else N, N, tn, tm, a_bs, b_bs, M * N, 0, K // 16,
                         len(bshape))
    bufs = {0: float_buffer(a64, dt).reshape(-1), 1: float_buffer(b64, dt).reshape(-1),
            3: Out(want, tol=EXACT, bf16=dt == "bf16"), 4: Bytes(params), 6: i32(bshape), 7: i64(bstrides),
            13: i32(mstrides or [0])}
    for i in (10, 11, 12):
        bufs[i] = masks[i][1].reshape(-1) if i in masks else i32([0])
    tname = TNAME[dt]
    mname = {None: "nomask", "bool": "bool_", "T": tname}
    entry = "steel_gemm_block_outmask_%s_opmask_%s_%s%s_%s_%s_bm%d_bn%d_bk16_wm2_wn2_MN_%saligned_K_%saligned" % (
        mname[out_mask], mname[op_mask], "t" if ta else "n", "t" if tb else "n", tname, tname, bs, bs,
        "t" if M % bs == 0 and N % bs == 0 else "n", "t" if K % 16 == 0 else "n")
    name = "mlx_block_masked_%s%s_%s_bs%d_%dx%dx%d_out%s_op%s%s%s" % (
        "t" if ta else "n", "t" if tb else "n", tname, bs, M, N, K, mname[out_mask], mname[op_mask],
        "_b" + "x".join(map(str, batch)) if batch else "", "_w%d" % width if width != 8 else "")
    ref.case(name, entry, bufs, threadgroup=(32, 2, 2), threadgroups=(tn, tm, nb), width=width)


case(np.float32, 32, 40, 50, 70, out_mask="bool", op_mask="bool")      # nothing aligned: partial tiles, K leftover
case(np.float16, 32, 36, 40, 64, op_mask="T", tb=True, batch=(2,))     # factors on the operands, a batch
case("bf16", 32, 48, 33, 40, out_mask="T", op_mask="bool", ta=True)    # factors on D, bool operand blocks
case(np.float32, 32, 64, 64, 48, out_mask="bool", ta=True, tb=True, width=32)   # aligned, D's mask only
case(np.float32, 64, 64, 40, 48, out_mask="T", op_mask="T", batch=(2, 2))       # block 64, a 2-D batch

if __name__ == "__main__":
    raise SystemExit(ref.main())
