#!/usr/bin/python3
"""Reference for samples/mlx_quant_forms.metal: MLX's quantized/fft forms. Pointers moved by reference in helpers
(the kernel's buffers and local pointers), a constructor returning early (fp8 e8m0), a struct of one uint32 array
read as bytes, static members Limits<T>::max/min (bfloat constants), pointers kept in a struct (fft's
ReadWriter, an aggregate), a nullptr default argument and __builtin_ctz."""
import numpy as np
from refcase import Out, Reference, Scalar, rng, to_bf16

ref = Reference("mlx_quant_forms.metal")
r = rng(1313)
f32 = np.float32

# batched_scale: rows of 16 moved to row tid.y by adjust_offsets (x, w and y by reference), or all row 0
rows, stride = 4, 16
x = r.uniform(-2, 2, rows * stride).astype(f32)
w = np.array([3, 1, 4, 2], np.uint32)


def scale_rows(xr, wr):
    nxt = np.concatenate([xr[2:], np.zeros(2, f32)])
    return (xr * f32(wr) + nxt).astype(f32)


batched = np.concatenate([scale_rows(x[i * stride:(i + 1) * stride], w[i]) for i in range(rows)])
ref.case("mlx_quant_forms_batched_scale", "batched_scale",
         {0: x, 1: w, 2: Out(batched), 3: Scalar("int", stride), 4: Scalar("int", 1)},
         threadgroup=(16, 1, 1), grid=(stride, rows, 1))
ref.case("mlx_quant_forms_batched_scale_row0", "batched_scale",
         {0: x, 1: w, 2: Out(scale_rows(x[:stride], w[0])), 3: Scalar("int", stride), 4: Scalar("int", 0)},
         threadgroup=(16, 1, 1), grid=(stride, 1, 1))

# e8m0_encode: not finite -> 0xff, negative -> 0, else round(log2 x) (halfway away from zero) clamped to
# [-127, 127], plus 127; no value near a halfway point of log2
xe = np.array([np.inf, -np.inf, np.nan, -1.0, 0.25, 1.0, 3.0, 1000.0, 1e30, 1e-30, 3e38, 0.7], f32)
with np.errstate(invalid="ignore", divide="ignore"):
    lg = np.log2(xe.astype(np.float64))
    n = np.clip(np.where(np.isfinite(lg), np.sign(lg) * np.floor(np.abs(lg) + 0.5), 0), -127, 127) + 127
bits = np.where(~np.isfinite(xe), 255, np.where(xe < 0, 0, n)).astype(np.uint32)
ref.case("mlx_quant_forms_e8m0_encode", "e8m0_encode", {0: xe, 1: Out(bits)}, threadgroup=16, grid=xe.size)

# byte_weights: each pair of uint32 as 8 little-endian bytes, weighted 1..8; bytes 3 and 4 joined
m = 40
wb = r.integers(0, 2**32, 2 * m, dtype=np.uint64).astype(np.uint32)
b = wb.view(np.uint8).reshape(m, 8).astype(np.uint32)
weighted = (b * np.arange(1, 9, dtype=np.uint32)).sum(axis=1).astype(np.uint32)
joined = (b[:, 3] | (b[:, 4] << 8)).astype(np.uint32)
ref.case("mlx_quant_forms_byte_weights", "byte_weights",
         {0: wb, 1: Out(np.stack([weighted, joined], axis=1).reshape(-1))}, threadgroup=8, grid=m)

# limits_range: per row of 5, max - min of bfloat and half values (from Limits<T>::max = inf, min = -inf),
# Limits<bfloat>::finite_max and Limits<half>::min, compared bit for bit
k, n = 8, 5
xb = to_bf16(r.uniform(-100, 100, k * n).astype(f32))
xb_f = (xb.astype(np.uint32) << 16).view(f32).reshape(k, n)
xh = r.uniform(-100, 100, k * n).astype(np.float16)
xh_f = xh.astype(f32).reshape(k, n)
bmax = np.array([0x7F7F << 16], np.uint32).view(f32)[0]
lim = np.stack([xb_f.max(axis=1) - xb_f.min(axis=1), xh_f.max(axis=1) - xh_f.min(axis=1),
                np.full(k, bmax, f32), np.full(k, -np.inf, f32)], axis=1).astype(f32)
ref.case("mlx_quant_forms_limits_range", "limits_range",
         {0: xb, 1: xh, 2: Out(lim.reshape(-1), bits=True), 3: Scalar("int", n)}, threadgroup=8, grid=k)

# reverse_double: each threadgroup's 32 values doubled into threadgroup memory and written reversed, through
# the struct's pointers; the aggregate's last element
g, n = 3, 32
xr = r.uniform(-1, 1, g * n).astype(f32)
rev = (2 * xr.reshape(g, n)[:, ::-1]).astype(f32).reshape(-1)
ref.case("mlx_quant_forms_reverse_double", "reverse_double",
         {0: xr, 1: Out(rev), 2: Scalar("int", n), 3: Out(xr.reshape(g, n)[:, -1].copy())}, threadgroup=n, threadgroups=g)

# default_null: scaled(v) (nullptr: unscaled) + ctz(8); scaled(v, s) + ctz(64)
q = 50
xd = r.uniform(-4, 4, q).astype(f32)
s = np.array([3.0], f32)
yd = np.stack([xd + f32(3), xd * s[0] + f32(6)], axis=1).astype(f32).reshape(-1)
ref.case("mlx_quant_forms_default_null", "default_null", {0: xd, 1: s, 2: Out(yd)}, threadgroup=16, grid=q)

if __name__ == "__main__":
    raise SystemExit(ref.main())
