#!/usr/bin/python3
"""Reference for samples/torch_kernels.metal: forms of PyTorch's mps kernels. vec4_rows: packed_float4 and
packed_half4 read and written through pointers moved by any number of scalars (SoftMaxKernel.metal's
load_vec4/store_vec4), at offsets that are not multiples of the vector's size; vec3_shifted: packed_float3 from a moved float pointer.
tiled_matmul: LinearAlgebra.metal's matmul_inner, threadgroup tiles passed as `threadgroup T tile[N][N]` parameters."""
import numpy as np
from refcase import EXACT, Bytes, InOut, Out, Reference, Scalar, rng

ref = Reference("torch_kernels.metal")
r = rng(1313)


def vec4_rows_case(name, entry, dtype, n, in_off, out_off, tg):
    # integers and halves: 2x + c and the sums are exact in both types
    inp = (r.integers(-512, 512, in_off + 4 * n + 3) / 2).astype(dtype)
    out_init = np.full(out_off + 4 * n + 5, 7.25, dtype=dtype)               # poison: only the rows change
    out = out_init.copy()
    rows = inp[in_off:in_off + 4 * n].astype(np.float32).reshape(n, 4)
    out[out_off:out_off + 4 * n] = (rows * 2 + np.arange(4, dtype=np.float32)).reshape(-1).astype(dtype)
    aux_init = (r.integers(-64, 64, in_off + 4 * n + 3) / 4).astype(np.float32)
    aux = aux_init.copy()
    w = rows.copy()
    w[:, 0] += aux_init[in_off:in_off + 4 * n].reshape(n, 4)[:, 0]
    aux[in_off:in_off + 4 * n] = w.reshape(-1)
    ref.case(name, entry, {0: inp, 1: InOut(out_init, out, tol=EXACT),
                           2: Bytes(np.array([in_off, out_off], dtype=np.uint32).tobytes()),
                           3: InOut(aux_init, aux, tol=EXACT)}, threadgroup=tg, grid=n)


def vec3_shifted_case(name, n, off, tg):
    raw = (r.integers(-256, 256, off + 3 * n + 2) / 4).astype(np.float32)
    v = raw[off:off + 3 * n].reshape(n, 3)
    y = v[:, 0] - v[:, 2] + v @ np.array([1, 2, 4], dtype=np.float32)
    ref.case(name, "vec3_shifted", {0: raw, 1: Out(y.astype(np.float32), tol=EXACT), 2: Scalar("uint", off)},
             threadgroup=tg, grid=n)


def matmul_case(name, entry, dtype, m, k, n, tol):
    # c = a @ b, accumulated in float; the grid covers c rounded up to whole 4x4 tiles (threads past c only load)
    a = r.uniform(-1, 1, (m, k)).astype(dtype)
    b = r.uniform(-1, 1, (k, n)).astype(dtype)
    c = (a.astype(np.float64) @ b.astype(np.float64)).astype(dtype)
    grid = ((n + 3) // 4 * 4, (m + 3) // 4 * 4, 1)
    ref.case(name, entry, {0: a.reshape(-1), 1: b.reshape(-1), 2: Out(c.reshape(-1), tol=tol),
                           3: Bytes(np.array([m, k, n, 0], dtype=np.uint32).tobytes())}, threadgroup=(4, 4, 1), grid=grid)


def strided_pairs_case(name, w, h, tg):
    # in read at (x*s0.x + y*s0.y) and (x*s1.x + y*s1.y); out written at y*s2.x + x*s2.y (transposed)
    s = np.array([[1, 7], [3, 2], [1, h]], dtype=np.uint32)
    inp = (r.integers(-100, 100, 7 * h + 3 * w + 8) / 8).astype(np.float32)
    y, x = np.mgrid[0:h, 0:w]
    out = np.empty(w * h, dtype=np.float32)
    out[(y * s[2, 0] + x * s[2, 1]).reshape(-1)] = (inp[x * s[0, 0] + y * s[0, 1]] + 2 * inp[x * s[1, 0] + y * s[1, 1]]).reshape(-1)
    ref.case(name, "strided_pairs_float", {0: inp, 1: Out(out, tol=EXACT), 2: Bytes(s.tobytes())}, threadgroup=tg, grid=(w, h, 1))


def index_add_small_case(name, entry, dtype, n_out, n, tg):
    # out[index[i]] += src[i] through compare-and-swap on 32-bit words: neighbours in one word race, so a lost
    # update shows; small integers keep every sum exact in half and in range for char
    out_init = r.integers(-20, 21, n_out).astype(dtype)
    src = r.integers(-3, 4, n).astype(dtype)
    index = r.integers(0, n_out, n).astype(np.int32)
    out = out_init.astype(np.int64)
    np.add.at(out, index, src.astype(np.int64))
    ref.case(name, entry, {0: InOut(out_init, out.astype(dtype), tol=EXACT), 1: src, 2: index}, threadgroup=tg, grid=n)


def fetch_add_old_case(name, n, tg):
    acc = (np.arange(n) + 0.25).astype(np.float32)
    ref.case(name, "fetch_add_old", {0: InOut(acc, acc + np.float32(0.5), tol=EXACT),
                                     1: Out((acc * 2).astype(np.float32), tol=EXACT)}, threadgroup=tg, grid=n)


def scatter_add_cast_case(name, n_out, n, tg):
    grad_init = (r.integers(-40, 40, 2 * n_out) / 2).astype(np.float32)   # halves and small sums: exact in any order
    index = r.integers(0, n_out, n).astype(np.int32)
    value = (r.integers(-16, 16, n) / 4).astype(np.float32)
    grad = grad_init.astype(np.float64)
    np.add.at(grad, index * 2 + 1, -value.astype(np.float64))
    ref.case(name, "scatter_add_cast", {0: InOut(grad_init, grad.astype(np.float32), tol=EXACT), 1: index, 2: value},
             threadgroup=tg, grid=n)


def group_scale_case(name, groups, tg):
    x0 = r.integers(-8, 8, groups * tg).astype(np.float32)
    x = x0.reshape(groups, tg)
    g = np.arange(groups, dtype=np.float32)[:, None]
    tau = x[:, :1] + np.float32(0.5)
    out = x * tau + (g + 1) + 2 * g
    ref.case(name, "group_scale_float", {0: InOut(x0, out.reshape(-1).astype(np.float32), tol=EXACT)},
             threadgroup=tg, grid=groups * tg)


vec4_rows_case("torch_kernels_vec4_rows_float", "vec4_rows_float", np.float32, 100, 1, 2, 32)   # 4 and 8 bytes in
vec4_rows_case("torch_kernels_vec4_rows_float_aligned", "vec4_rows_float", np.float32, 37, 4, 0, 16)
vec4_rows_case("torch_kernels_vec4_rows_half", "vec4_rows_half", np.float16, 100, 3, 1, 32)     # 6 and 2 bytes in
vec3_shifted_case("torch_kernels_vec3_shifted", 77, 1, 32)
vec3_shifted_case("torch_kernels_vec3_shifted_by_2", 64, 2, 64)
matmul_case("torch_kernels_tiled_matmul_float", "tiled_matmul_float", np.float32, 13, 10, 9, {"rtol": 1e-5, "atol": 1e-5})
matmul_case("torch_kernels_tiled_matmul_half", "tiled_matmul_half", np.float16, 8, 7, 12, {"rtol": 2e-3, "atol": 2e-3})
strided_pairs_case("torch_kernels_strided_pairs", 9, 5, (4, 4, 1))
index_add_small_case("torch_kernels_index_add_small_half", "index_add_small_half", np.float16, 37, 500, 64)
index_add_small_case("torch_kernels_index_add_small_short", "index_add_small_short", np.int16, 21, 300, 32)
index_add_small_case("torch_kernels_index_add_small_char", "index_add_small_char", np.int8, 18, 250, 32)
fetch_add_old_case("torch_kernels_fetch_add_old", 100, 32)
scatter_add_cast_case("torch_kernels_scatter_add_cast", 23, 400, 64)
group_scale_case("torch_kernels_group_scale", 5, 32)

if __name__ == "__main__":
    raise SystemExit(ref.main())
