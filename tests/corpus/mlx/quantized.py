#!/usr/bin/python3
"""MLX's affine-quantized matrix-vector products, 4 bits (kernels/quantized.metal, launched by qmv in
mlx/backend/metal/quantized.cpp for QuantizedMatmul with transposed weights) against NumPy: y = x @ W.T with
W[n, k] = scales[n, k / gs] * q[n, k] + biases[n, k / gs], q the 4-bit values packed eight to a uint32, the
lowest nibble first (MLX's affine format). `affine_qmv_fast_<T>_gs_<gs>_b_4_batch_<0|1>` where N % 8 == 0 and
K % 512 == 0, else `affine_qmv_...`; w, scales, biases, x, y at 0-4, K and N (int) at 5-6; batched (w with a batch
axis): x_batch_ndims, x_shape, x_strides, w_batch_ndims, w_shape, w_strides, s_strides, b_strides at 7-14 (not
bound unbatched, and not read: zeros here, as mtlrun binds every buffer). Threadgroups (32, 2), grid (M,
ceil(N / 8), batch). The host takes this route for M = 1, and for M from 2 up to its vector limit on GPUs before
Apple's generation 15 (M1, M2: no qmv_wide); K of 64 or 128 goes to qmv_quad instead. Scales and biases are
multiples of 1/8 and x small integers: every float sum is exact and the kernel rounds once to T, as NumPy does.
SIMD-group sums: one case of each kernel at every width."""
import numpy as np

from mlxcase import EXACT, Out, Scalar, i32, i64, reference, rng

ref = reference("quantized.metal")
r = rng(416)
TSTR = {np.float32: "float", np.float16: "float16_t"}


def pack4(q):
    """(…, K) values 0-15 -> (…, K / 8) uint32, value k at bits 4 (k % 8)."""
    q = q.astype(np.uint32).reshape(q.shape[:-1] + (q.shape[-1] // 8, 8))
    return (q << (4 * np.arange(8, dtype=np.uint32))).sum(axis=-1, dtype=np.uint32)


def case(dt, gs, N, K, M=1, batch=0, width=None):
    assert K % gs == 0 and K not in (64, 128)
    wb = (batch,) if batch else ()
    q = r.integers(0, 16, size=wb + (N, K))
    scales = (r.integers(1, 9, size=wb + (N, K // gs)) / 8.0).astype(dt)
    biases = (r.integers(-16, 17, size=wb + (N, K // gs)) / 8.0).astype(dt)
    x = r.integers(-3, 4, size=wb + (M, K)).astype(dt)
    W = np.repeat(scales.astype(np.float64), gs, axis=-1) * q + np.repeat(biases.astype(np.float64), gs, axis=-1)
    want = np.matmul(x.astype(np.float64), np.swapaxes(W, -1, -2)).astype(dt)
    fast = N % 8 == 0 and K % 512 == 0
    entry = "affine_qmv%s_%s_gs_%d_b_4_batch_%d" % ("_fast" if fast else "", TSTR[dt], gs, 1 if batch else 0)
    bufs = {0: pack4(q).reshape(-1), 1: scales.reshape(-1), 2: biases.reshape(-1), 3: x.reshape(-1),
            4: Out(want.reshape(-1), tol=EXACT), 5: Scalar("int", K), 6: Scalar("int", N)}
    # unbatched the host binds nothing at 7-14 and the kernel reads none of it; mtlrun wants every buffer: zeros
    bufs.update({7: Scalar("int", 0), 8: i32([0]), 9: i64([0]), 10: Scalar("int", 0), 11: i32([0]), 12: i64([0]),
                 13: i64([0]), 14: i64([0])})
    if batch:   # add_strides_and_shapes: x (B, M, K), w (B, N, K / 8), scales and biases (B, N, K / gs)
        bufs.update({7: Scalar("int", 1), 8: i32([batch, M, K]), 9: i64([M * K, K, 1]), 10: Scalar("int", 1),
                     11: i32([batch, N, K // 8]), 12: i64([N * K // 8, K // 8, 1]), 13: i64([N * K // gs, K // gs, 1]),
                     14: i64([N * K // gs, K // gs, 1])})
    name = "mlx_%s_N%d_K%d%s%s%s" % (entry, N, K, "_M%d" % M if M > 1 else "", "_b%d" % batch if batch else "",
                                    "_w%d" % width if width else "")
    ref.case(name, entry, bufs, threadgroup=(32, 2), threadgroups=(M, -(-N // 8), max(batch, 1)), width=width)


for w in (8, 16, 32, 64):
    case(np.float16, 64, 32, 512, width=w)     # fast: two 256-value blocks
    case(np.float32, 32, 13, 320, width=w)     # qmv: 13 outputs (the last tile shifted back), K past the last block
case(np.float32, 64, 16, 1024)
case(np.float16, 32, 40, 1536)
case(np.float16, 64, 5, 448)                   # qmv under one tile of 8 outputs: guarded rows
case(np.float16, 64, 24, 512, M=3)             # three vectors (pre-M3 GPUs)
case(np.float32, 32, 16, 512, batch=2)         # a batch of weights
case(np.float16, 64, 11, 192, batch=3)

if __name__ == "__main__":
    raise SystemExit(ref.main())
