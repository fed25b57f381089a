#!/usr/bin/python3
"""MLX's affine-quantized matrix-matrix products on SIMD-group matrices (kernels/quantized.metal: affine_qmm_t,
affine_qmm_n and affine_qmm_t_splitk, launched by qmm and qmm_splitk in mlx/backend/metal/quantized.cpp for
QuantizedMatmul) against NumPy.

Weights are quantized along their last axis in groups of gs values: W[r, c] = scales[r, c / gs] * q[r, c] +
biases[r, c / gs], q of `bits` bits packed as one little-endian bit stream per row (value c at bit c * bits; for 2,
4 and 8 bits that is uint32 words, the lowest value first; 3, 5 and 6 bits: 8 values in 3, 5 or 6 bytes). qmm_t
(transpose: y = x @ W.T, W of N x K) and qmm_n (y = x @ W, W of K x N): `affine_qmm_t_<T>_gs_<gs>_b_<bits>_alN_
<N % 32 == 0>_batch_<0|1>` and `affine_qmm_n_<T>_gs_<gs>_b_<bits>_batch_<0|1>`; w, scales, biases, x, y at 0-4, K,
N, M (int) at 5-7; batched (more than one output matrix): x_batch_ndims, x_shape, x_strides, w_batch_ndims,
w_shape, w_strides, s_strides, b_strides at 8-15 (unbatched the host binds none of them and the kernel reads none:
zeros here, as mtlrun binds every buffer). Threadgroups (32, 2, 2), grid (ceil(N / 32), ceil(M / 32), batch).
The host takes the matrix route for M at least its vector limit (4 for qmm_n; for qmm_t at most 33 whatever the
GPU, so M >= 33 here); a transposed product of one matrix goes to qmm_splitk, which falls back to qmm_t where K
cannot be split (K one group of at least 32), and otherwise runs affine_qmm_t_splitk_<T>_gs_<gs>_b_<bits>_alN_..
(w, scales, biases, x, partials 0-4, K, N, M, k_partition_size, partition stride M * N at 5-9; grid (ceil(N / 32),
ceil(M / 32), split_k)) and then a strided sum over the split axis (reduce.metal, run in reduce.py): its
partials, each a matrix of T, are compared here. Batches come from quantized_matmul's broadcast_arrays (x and w
of more than 2 dimensions; a broadcast x has batch stride 0).

Scales are powers of two (1/8 to 1) and biases whole multiples of their scale, x small integers: every
dequantized weight (a power of two times an integer of at most 8 bits for bfloat16) is exact in T (the kernel
dequantizes into threadgroup memory of T), every float sum is exact, and the kernel rounds once to T, as NumPy
does: compared exactly."""
import numpy as np

from mlxcase import EXACT, Out, Scalar, i32, i64, reference, rng, to_bf16, from_bf16

ref = reference("quantized.metal")
r = rng(1504)
TSTR = {np.float32: "float", np.float16: "float16_t", "bf16": "bfloat16_t"}


def pack(q, bits):
    """(..., C) values of BITS bits -> (..., C * bits / 32) uint32: one little-endian bit stream per row."""
    bitplanes = (q[..., None].astype(np.uint32) >> np.arange(bits, dtype=np.uint32)) & 1
    stream = bitplanes.reshape(q.shape[:-1] + (q.shape[-1] * bits,)).astype(np.uint8)
    packed = np.packbits(stream, axis=-1, bitorder="little")
    assert packed.shape[-1] % 4 == 0
    return np.ascontiguousarray(packed).view("<u4")


def as_t(v, dt):
    """float64 values as T's buffer (bfloat16 as its bits); asserts they are exact in T."""
    if dt == "bf16":
        b = to_bf16(np.asarray(v, dtype=np.float32))
        assert np.array_equal(from_bf16(b).astype(np.float64), v)
        return b
    t = np.asarray(v).astype(dt)
    assert np.array_equal(t.astype(np.float64), v)
    return t


def rounded_t(v, dt):
    """float64 values rounded once to T's buffer."""
    return to_bf16(np.asarray(v, dtype=np.float32)) if dt == "bf16" else np.asarray(v).astype(dt)


def quantized(shape, gs, bits, dt):
    """Weights of SHAPE (..., R, C), quantized along C: (the float64 weights, w, scales, biases buffers)."""
    q = r.integers(0, 1 << bits, size=shape)
    g = shape[:-1] + (shape[-1] // gs,)
    scales = 2.0 ** -r.integers(0, 4, size=g)
    # biases whole multiples of their scale: W = scale * (q + z), an integer of at most 8 bits times a power of two
    lo, hi = (-128, 0) if (dt == "bf16" and bits == 8) else (-(1 << bits) // 2, (1 << bits) // 2)
    biases = scales * r.integers(lo, hi + 1, size=g)
    W = np.repeat(scales, gs, axis=-1) * q + np.repeat(biases, gs, axis=-1)
    as_t(W, dt)   # every dequantized weight exact in T
    return W, pack(q, bits), as_t(scales, dt), as_t(biases, dt)


def strides(shape):
    s, acc = [], 1
    for d in reversed(shape):
        s.insert(0, acc)
        acc *= d
    return s


def case(kind, dt, gs, bits, M, N, K, x_batch=(), w_batch=(), split_k=None, width=8):
    """KIND 't' (y = x @ W.T), 'n' (y = x @ W) or 'splitk' (qmm_t's partials); X_BATCH and W_BATCH the batch
    shapes before broadcasting (x of 1 in a dimension w has more: batch stride 0)."""
    transpose = kind != "n"
    assert (K if transpose else N) % gs == 0 and M >= (33 if transpose else 4)
    batch = tuple(np.broadcast_shapes(x_batch, w_batch)) if x_batch or w_batch else ()
    nb = int(np.prod(batch)) if batch else 1
    assert (nb > 1) == bool(batch) and (kind != "splitk" or not batch)
    W, w, scales, biases = quantized(w_batch + ((N, K) if transpose else (K, N)), gs, bits, dt)
    x = r.integers(-3, 4, size=x_batch + (M, K)).astype(np.float64)
    Wm = np.swapaxes(W, -1, -2) if transpose else W
    xb = np.broadcast_to(x, batch + (M, K))
    Wb = np.broadcast_to(Wm, batch + (K, N))
    tgs = (-(-N // 32), -(-M // 32), nb)
    if kind == "splitk":
        # qmm_splitk: ~512 threadgroups, whole groups of at least 32 per partition, K divisible by the split
        k_align = max(gs, 32)
        sk = min(max(1, 512 // (tgs[0] * tgs[1])), K // k_align)
        while sk > 1 and K % (sk * k_align) != 0:
            sk -= 1
        assert sk > 1 and (split_k is None or sk == split_k), sk
        kp = K // sk
        want = np.stack([x[:, p * kp:(p + 1) * kp] @ Wm[p * kp:(p + 1) * kp, :] for p in range(sk)])
        tgs = (tgs[0], tgs[1], sk)
    else:
        if transpose and not batch:   # qmm_splitk falls back to qmm_t only where K cannot be split
            assert K // max(gs, 32) <= 1, "the host would split K"
        want = np.matmul(xb, Wb)
    bufs = {0: w.reshape(-1), 1: scales.reshape(-1), 2: biases.reshape(-1), 3: as_t(x, dt).reshape(-1),
            4: Out(rounded_t(want, dt).reshape(-1), tol=EXACT, bf16=dt == "bf16"), 5: Scalar("int", K),
            6: Scalar("int", N), 7: Scalar("int", M)}
    aligned = "_alN_%s" % ("true" if N % 32 == 0 else "false") if transpose else ""
    if kind == "splitk":
        bufs.update({8: Scalar("int", K // sk), 9: Scalar("int", M * N)})
        entry = "affine_qmm_t_splitk_%s_gs_%d_b_%d%s" % (TSTR[dt], gs, bits, aligned)
    else:
        entry = "affine_qmm_%s_%s_gs_%d_b_%d%s_batch_%d" % (kind, TSTR[dt], gs, bits, aligned, 1 if batch else 0)
        # unbatched the host binds nothing at 8-15 and the kernel reads none of it; mtlrun wants every buffer
        bufs.update({8: Scalar("int", 0), 9: i32([0]), 10: i64([0]), 11: Scalar("int", 0), 12: i32([0]),
                     13: i64([0]), 14: i64([0]), 15: i64([0])})
    if batch:   # add_strides_and_shapes: the (broadcast) arrays' shapes and element strides, batch axes first
        x_shape = batch + (M, K)
        xs = strides(x_batch + (M, K))
        x_str = [0 if i < len(batch) and x_batch[i] == 1 and batch[i] > 1 else xs[i] for i in range(len(x_shape))]
        wrow = K if transpose else N
        w_shape = batch + (w.shape[-2], w.shape[-1])
        g_shape = batch + (scales.shape[-2], scales.shape[-1])
        assert tuple(w_batch) == batch, "w is not broadcast here"
        bufs.update({8: Scalar("int", len(batch)), 9: i32(x_shape), 10: i64(x_str), 11: Scalar("int", len(batch)),
                     12: i32(w_shape), 13: i64(strides(w_shape)), 14: i64(strides(g_shape)),
                     15: i64(strides(g_shape))})
        assert wrow * bits // 32 == w.shape[-1]
        # x is handed over as its own (unbroadcast) buffer: a batch stride of 0 reads it again
        bufs[3] = as_t(x, dt).reshape(-1)
    name = "mlx_qmm_%s_%s_gs%d_b%d_%dx%dx%d%s%s%s" % (
        kind, TSTR[dt], gs, bits, M, N, K, "_xb" + "x".join(map(str, x_batch)) if x_batch else "",
        "_wb" + "x".join(map(str, w_batch)) if w_batch else "", "_w%d" % width if width != 8 else "")
    ref.case(name, entry, bufs, threadgroup=(32, 2, 2), threadgroups=tgs, width=width)


# qmm_t of one matrix: K one group (the host cannot split it); N not a multiple of 32 (alN false), M a partial tile
case("t", np.float32, 64, 4, 40, 40, 64)
case("t", "bf16", 32, 3, 34, 50, 96, x_batch=(2,), w_batch=(2,))  # 3 bits (8 values in 3 bytes), a batch
case("t", np.float16, 32, 6, 33, 24, 64, x_batch=(1, 3), w_batch=(2, 3), width=32)  # x broadcast, 2-D batch
# qmm_n: K not a multiple of 32 (the leftover block); N a multiple of the group
case("n", np.float32, 64, 4, 40, 64, 50)
case("n", np.float16, 32, 2, 20, 96, 64, x_batch=(2,), w_batch=(2,))
case("n", "bf16", 128, 5, 8, 128, 40)                            # 5 bits (8 values in 5 bytes)
# qmm_t_splitk: its partials (then summed by reduce.metal's strided reduction)
case("splitk", "bf16", 32, 8, 36, 64, 96, split_k=3)          # 8 bits, alN true

if __name__ == "__main__":
    raise SystemExit(ref.main())
