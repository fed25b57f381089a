"""Shared parts of the MLX execution cases (tests/corpus/mlx/*.py): where MLX is, and the launch arithmetic of
MLX's host code (mlx/backend/metal/*.cpp and mlx/backend/common/utils.cpp) that several kernels share.

Each script describes cases of one kernel file of MLX (mlx/backend/metal/kernels/FILE.metal) as its host code
launches them, with NumPy references; tests/corpus/run_mlx_exec.py runs them. MTL2GLSL_MLX_DIR names the MLX
checkout (commit 846d176227a0ac13d2667e58d2bb68b322109ab0).
"""
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "ref"))
from refcase import Bytes, InOut, Out, Reference, Scalar, from_bf16, rng, to_bf16  # noqa: E402,F401

ROOT = os.environ.get("MTL2GLSL_MLX_DIR", "")
KERNELS = os.path.join(ROOT, "mlx", "backend", "metal", "kernels")

# MLX's type names in kernel names (type_to_name) and the NumPy dtype the buffers hold (bfloat16 as uint16 bits)
TNAME = {np.float32: "float32", np.float16: "float16", "bf16": "bfloat16", np.int32: "int32", np.uint32: "uint32",
         np.int64: "int64", np.uint8: "uint8", np.int8: "int8", np.int16: "int16", np.bool_: "bool_"}

# Tolerances fit the dtype: float32 arithmetic that NumPy does in float64 and rounds once; half and bfloat16 outputs
# within a few units in the last place of their own precision.
F32 = {"rtol": 1e-5, "atol": 1e-6}
F32_TRANSCENDENTAL = {"rtol": 2e-5, "atol": 2e-6}
F16 = {"rtol": 2e-3, "atol": 1e-3}
BF16 = {"rtol": 1.6e-2, "atol": 1e-2}
EXACT = {"rtol": 0, "atol": 0}


def reference(kernel_file):
    """The Reference of MLX's mlx/backend/metal/kernels/KERNEL_FILE."""
    return Reference(os.path.join(KERNELS, kernel_file))


def block_dims(dim0, dim1, dim2, pow2=10):
    """get_block_dims_common (mlx/backend/common/utils.cpp): powers of two, grown in turn per dimension while the
    dimension is at least twice as large, until their exponents sum to pow2 (at most 10: 1024 threads)."""
    pows = [0, 0, 0]
    total = 0
    dims = (dim0, dim1, dim2)
    while True:
        presum = total
        stop = False
        for i in range(3):
            if dims[i] >= (1 << (pows[i] + 1)):
                pows[i] += 1
                total += 1
            if total == 10:
                stop = True
                break
        if stop or total == presum or total == pow2:
            break
    return (1 << pows[0], 1 << pows[1], 1 << pows[2])


def work_per_thread(itemsize, size):
    """get_work_per_thread (mlx/backend/metal/utils.h): 8 bytes a thread from 65536 elements on, else 1."""
    return 1 if size < (1 << 16) else max(1, 8 // itemsize)


def as_dtype(a, dt):
    """A NumPy array of values in the buffer's dtype: bfloat16 ("bf16") as its uint16 bits."""
    if dt == "bf16":
        return to_bf16(np.asarray(a, dtype=np.float32))
    return np.asarray(a).astype(dt)


def values(a, dt):
    """The float32 values a buffer of dtype DT holds (what the kernel reads)."""
    if dt == "bf16":
        return from_bf16(a)
    return np.asarray(a).astype(np.float32) if np.dtype(dt).kind == "f" else np.asarray(a)


def tol(dt, transcendental=False):
    if dt == "bf16":
        return BF16
    if dt == np.float16:
        return F16
    if dt == np.float32:
        return F32_TRANSCENDENTAL if transcendental else F32
    return EXACT


def strides_of(a):
    """Element strides of a NumPy view."""
    return [s // a.itemsize for s in a.strides]


def i32(v):
    return np.asarray(v, dtype=np.int32)


def i64(v):
    return np.asarray(v, dtype=np.int64)


def row_launch(axis_size, n_rows, n_reads, looped_limit, max_threads=1024):
    """The launch of MLX's row kernels (softmax.cpp, logsumexp.cpp, normalization.cpp): a threadgroup per row of
    ceil(ceil(axis / n_reads) / 32) SIMD-groups, or max_threads threads (the looped kernel) past looped_limit.
    Returns (looped, threadgroup size, grid threads)."""
    if axis_size <= looped_limit:
        simds = -(-(-(-axis_size // n_reads)) // 32)
        tg = 32 * simds
        return False, tg, n_rows * tg
    return True, max_threads, n_rows * max_threads


def rounded(v, dt):
    """float64 values rounded to the buffer dtype DT and back to float64 (a kernel's static_cast<T>)."""
    if dt == "bf16":
        return from_bf16(to_bf16(np.asarray(v, dtype=np.float32))).astype(np.float64)
    return np.asarray(v).astype(dt).astype(np.float64)


def gemm_params(M, N, K, lda, ldb, ldd, tiles_n, tiles_m, bsa, bsb, bsd, swizzle_log, k_iters, batch_ndim):
    """mlx::steel::GEMMParams (steel/gemm/params.h) as C lays it out: 8 ints, 3 int64 at 32, 3 ints (the last
    gemm_k_iterations_aligned and batch_ndim), padded to 72 bytes."""
    return struct.pack("<8i3q3i4x", M, N, K, lda, ldb, ldd, tiles_n, tiles_m, bsa, bsb, bsd, swizzle_log,
                       k_iters, batch_ndim)


def float_buffer(v, dt):
    """V stored as dtype DT; "bf16": bfloat16 bits (uint16)."""
    return to_bf16(np.asarray(v, dtype=np.float32)) if dt == "bf16" else np.asarray(v).astype(dt)


def conv_params(N, C, O, iS, wS, oS, st, pad, kdil, idil, in_st, wt_st, out_st, groups, flip):
    """MLXConvParams<NDIM> (steel/conv/params.h) as C lays it out, NDIM = len(iS): N, C, O and seven int[NDIM], padded
    to 8 bytes; int64 in_strides, wt_strides, out_strides [NDIM + 2]; int groups; bool flip; padded to 8 bytes
    (176 bytes for 2-D, 224 for 3-D)."""
    nd = len(iS)
    ints = struct.pack("<%di" % (3 + 7 * nd), N, C, O, *iS, *wS, *oS, *st, *pad, *kdil, *idil)
    ints += b"\0" * (-len(ints) % 8)
    tail = struct.pack("<%dqi?" % (3 * (nd + 2)), *in_st, *wt_st, *out_st, groups, flip)
    return ints + tail + b"\0" * (-len(tail) % 8)


def implicit_gemm_tiles(iM, iN, cpg):
    """The tiles implicit_gemm_conv_2D_gpu and implicit_gemm_conv_3D_gpu (conv.cpp) choose for a product of iM
    output pixels by iN output channels with cpg input channels a group: bm, bn, bk, wm, wn and the tile counts
    tm (pixels) and tn (channels)."""
    bm = 64 if iM >= 8192 and cpg >= 64 else 32
    bn = 64 if (bm == 64 or iN >= 64) else 32
    bk, wm, wn = 16, 2, 2
    if iN <= 16:
        bn, wm, wn = 8, 4, 1
    return bm, bn, bk, wm, wn, -(-iM // bm), -(-iN // bn)


def conv_out_shape(iS, wS, st, pad_lo, pad_hi, kdil, idil):
    """The output's spatial shape as mx.conv_general computes it: the input dilated, padded on both sides."""
    return tuple(((s - 1) * di + 1 + lo + hi - d * (k - 1) - 1) // t + 1
                 for s, k, t, lo, hi, d, di in zip(iS, wS, st, pad_lo, pad_hi, kdil, idil))


def conv_reference(x, w, st, pad_lo, oS, kdil, idil, groups, flip):
    """A channels-last N-D convolution in float64, written from its definition: x (N, *S, C) dilated by IDIL (zeros
    between the values), padded by PAD_LO (and zeros past the end); w (O, *K, C / groups), turned around on every
    spatial axis when FLIP; out[n, *o, g * Opg + p] = sum over the kernel offsets k and channels c of the group of
    x[n, *(o * st + k * kdil - pad_lo), g * Cpg + c] * w[g * Opg + p, *k, c]."""
    nd = x.ndim - 2
    O, cpg = w.shape[0], w.shape[-1]
    opg = O // groups
    if flip:
        w = w[(slice(None),) + (slice(None, None, -1),) * nd]
    dil = np.zeros((x.shape[0],) + tuple((s - 1) * d + 1 for s, d in zip(x.shape[1:-1], idil)) + (x.shape[-1],))
    dil[(slice(None),) + tuple(slice(None, None, d) for d in idil)] = x
    need = [(o - 1) * t + (k - 1) * d + 1 for o, t, k, d in zip(oS, st, w.shape[1:-1], kdil)]
    xp = np.zeros((x.shape[0],) + tuple(max(n, lo + s) for n, lo, s in zip(need, pad_lo, dil.shape[1:-1]))
                  + (x.shape[-1],))
    xp[(slice(None),) + tuple(slice(lo, lo + s) for lo, s in zip(pad_lo, dil.shape[1:-1]))] = dil
    out = np.zeros((x.shape[0],) + tuple(oS) + (O,))
    for k in np.ndindex(*w.shape[1:-1]):
        patch = xp[(slice(None),) + tuple(slice(kk * d, kk * d + (o - 1) * t + 1, t)
                                          for kk, d, o, t in zip(k, kdil, oS, st))]
        for g in range(groups):
            out[..., g * opg:(g + 1) * opg] += np.tensordot(patch[..., g * cpg:(g + 1) * cpg],
                                                            w[(slice(g * opg, (g + 1) * opg),) + k].T, axes=1)
    return out
