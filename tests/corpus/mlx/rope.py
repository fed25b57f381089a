#!/usr/bin/python3
"""MLX's rotary position embedding (kernels/rope.metal, launched by RoPE::eval_gpu in mlx/backend/metal/rope.cpp)
against NumPy, on (B, N heads, T, D) inputs, rotating the whole head (dims = D). Function constants forward (1),
traditional (2: pairs (2i, 2i+1); else (i, i + D/2)), hs_transpose (3). `rope_<type>`: in, out, offset (int32
array, one per batch or one for all), scale (float), strides, out_strides (int64[3]), offset_stride (int64),
n_head (int) at 0-7, log2(base) (float) at 10; grid (D/2, T, B * ceil(N / 4)), get_block_dims groups.
`rope_single_<type>` (T = 1, one offset): offset (int), scale, stride (int64) at 2-4, grid (D/2, B * N).
Angles use metal::fast::cos/sin, whose precision Metal does not promise either: tolerances allow 3e-3."""
import numpy as np

from mlxcase import BF16, TNAME, Out, Scalar, as_dtype, block_dims, i64, reference, rng, values

ref = reference("rope.metal")
r = rng(409)
TOL = {np.float32: {"rtol": 1e-3, "atol": 3e-3}, np.float16: {"rtol": 4e-3, "atol": 4e-3}, "bf16": BF16}
FC = {}


def expected(x, offsets, scale, base, traditional):
    B, N, T, D = x.shape
    half = D // 2
    inv = np.exp2(-(np.arange(half) / half) * np.log2(base))
    pos = np.arange(T)[None, :] + offsets[:, None]                       # [B, T]
    theta = (scale * pos)[:, None, :, None] * inv[None, None, None, :]   # [B, 1, T, half]
    c, s = np.cos(theta), np.sin(theta)
    if traditional:
        x1, x2 = x[..., 0::2], x[..., 1::2]
    else:
        x1, x2 = x[..., :half], x[..., half:]
    r1, r2 = x1 * c - x2 * s, x1 * s + x2 * c
    out = np.empty_like(x)
    if traditional:
        out[..., 0::2], out[..., 1::2] = r1, r2
    else:
        out[..., :half], out[..., half:] = r1, r2
    return out


def case(dt, B, N, T, D, traditional=False, per_batch_offset=True, scale=1.0, base=10000.0):
    from refcase import Scalar as S
    x = as_dtype(r.uniform(-2, 2, (B, N, T, D)), dt)
    offsets = r.integers(0, 20, B) if per_batch_offset else np.full(B, 5)
    want = as_dtype(expected(values(x, dt).astype(np.float64), offsets, scale, base, traditional), dt)
    consts = {1: S("bool", True), 2: S("bool", traditional), 3: S("bool", False)}
    single = T == 1 and not per_batch_offset
    if single:
        entry = "rope_single_" + TNAME[dt]
        bufs = {0: x.reshape(-1), 1: Out(want.reshape(-1), tol=TOL[dt], bf16=dt == "bf16"), 2: Scalar("int", offsets[0]),
                3: Scalar("float", np.float32(scale)), 4: Scalar("long", D), 10: Scalar("float", np.float32(np.log2(base)))}
        dims = (D // 2, B * N, 1)
        del consts[3]                                  # the single-token kernel does not read hs_transpose
    else:
        entry = "rope_" + TNAME[dt]
        st = [T * D, D, 1]
        bufs = {0: x.reshape(-1), 1: Out(want.reshape(-1), tol=TOL[dt], bf16=dt == "bf16"),
                2: offsets.astype(np.int32), 3: Scalar("float", np.float32(scale)), 4: i64(st), 5: i64(st),
                6: Scalar("long", 1 if per_batch_offset else 0), 7: Scalar("int", N),
                10: Scalar("float", np.float32(np.log2(base)))}
        if not per_batch_offset:
            bufs[2] = offsets[:1].astype(np.int32)
        dims = (D // 2, T, B * (-(-N // 4)))
    ref.case("mlx_%s_%dx%dx%dx%d%s" % (entry, B, N, T, D, "_traditional" if traditional else ""), entry, bufs,
             threadgroup=block_dims(*dims), grid=dims, constants=consts)


case(np.float32, 2, 5, 7, 16)                      # 5 heads: the last group of 4 has one
case(np.float32, 1, 3, 9, 32, traditional=True, per_batch_offset=False, scale=0.5)
case(np.float16, 2, 4, 6, 64, base=500000.0)
case(np.float32, 3, 2, 1, 8, per_batch_offset=False)   # rope_single_: one token
case("bf16", 1, 4, 5, 16, traditional=True)

if __name__ == "__main__":
    raise SystemExit(ref.main())
