#!/usr/bin/python3
"""Reference for samples/simdgroup_matrix.metal: SIMD-group matrices (8x8) against NumPy.

The layout is Apple's published table (which lane holds each element of an 8x8 simdgroup_matrix, row by row; a
lane holds two adjacent elements of one row), written out here as data, not computed the way the translator
computes it. Products are checked against float64 matrix products of the inputs as the kernel holds them (half
and bfloat inputs rounded first); the translation accumulates in float.
"""
import numpy as np
from refcase import WIDTHS, Bytes, InOut, Out, Reference, from_bf16, rng, to_bf16

ref = Reference("simdgroup_matrix.metal")
r = rng(15)

# Apple's layout: LANE[row][column] is the lane that holds element (row, column).
LANE = np.array([
    [0, 0, 1, 1, 8, 8, 9, 9],
    [2, 2, 3, 3, 10, 10, 11, 11],
    [4, 4, 5, 5, 12, 12, 13, 13],
    [6, 6, 7, 7, 14, 14, 15, 15],
    [16, 16, 17, 17, 24, 24, 25, 25],
    [18, 18, 19, 19, 26, 26, 27, 27],
    [20, 20, 21, 21, 28, 28, 29, 29],
    [22, 22, 23, 23, 30, 30, 31, 31]])
# ELEMENT[row][column]: which of the lane's two elements it is (the first is the left one of the pair)
ELEMENT = np.tile([0, 1], (8, 4))


def lane_elements(m):
    """The two elements each of the 32 lanes holds of 8x8 matrix m: array [32, 2]."""
    out = np.zeros((32, 2), m.dtype)
    out[LANE, ELEMENT] = m
    return out


def encode(a, kind):
    """float values -> the buffer's dtype (bfloat as its bits)."""
    if kind == "float":
        return a.astype(np.float32)
    if kind == "half":
        return a.astype(np.float16)
    return to_bf16(a.astype(np.float32))


def decode(a, kind):
    return from_bf16(a) if kind == "bfloat" else a.astype(np.float32)


# ---- layout: lane-dependent values through thread_elements(), stored; a loaded matrix read back per lane ----
def layout(kind, width, grid=96, tg=64):
    groups = grid // 32
    values = np.zeros((groups, 8, 8), np.float32)
    for g in range(groups):
        values[g] = LANE * 2 + ELEMENT + 64 * g       # lane l wrote 2l and 2l + 1 (plus 64 per SIMD-group)
    src = encode(r.uniform(-8, 8, (groups, 8, 8)).round(2), kind)
    elems = np.concatenate([lane_elements(decode(src[g], kind)) for g in range(groups)])
    exact = {"rtol": 0.0, "atol": 0.0}
    ref.case("sgm_layout_%s_grid%d_tg%d_w%d" % (kind, grid, tg, width), "sgm_layout_" + kind,
             {0: src.reshape(-1), 1: Out(encode(values, kind).reshape(-1), tol=exact),
              2: Out(encode(elems, kind).reshape(-1), tol=exact)},
             threadgroup=tg, grid=grid, width=width)


for width in WIDTHS:
    layout("float", width)
for width in (8, 32):
    layout("half", width)
    layout("bfloat", width)
layout("float", 32, grid=32, tg=32)

# ---- loads and stores: stride, origin, transpose, device and threadgroup memory ----
# struct Place { uint stride; uint2 origin; bool transpose; }: offsets 0, 8, 16; size 24
PLACE = np.dtype({"names": ["stride", "origin", "transpose"], "formats": ["<u4", ("<u4", 2), "u1"],
                  "offsets": [0, 8, 16], "itemsize": 24})


def place(stride, origin, transpose):
    p = np.zeros((), PLACE)
    p["stride"], p["origin"], p["transpose"] = stride, origin, transpose
    return Bytes(p.tobytes())


def at(stride, origin, transpose):
    """Flat indices of the 64 elements (row, column) of a matrix placed so."""
    rows, cols = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    x, y = origin
    return np.where(transpose, (x + cols) * stride + y + rows, (y + rows) * stride + x + cols)


def copy(name, frm, via, to, dst_size, widths):
    src = r.uniform(-4, 4, 24 * 24).astype(np.float32)
    m = src[at(*frm)]                      # the matrix as loaded
    assert at(*via).max() < 24 * 24
    initial = np.full(dst_size, -7.0, np.float32)
    expected = initial.copy()
    expected[at(*to)] = m
    for width in widths:
        ref.case("sgm_copy_%s_w%d" % (name, width), "sgm_copy",
                 {0: src, 1: InOut(initial, expected, tol={"rtol": 0.0, "atol": 0.0}),
                  2: place(*frm), 3: place(*via), 4: place(*to)},
                 threadgroup=32, threadgroups=1, width=width)


copy("origin", (24, (5, 3), False), (24, (2, 7), True), (16, (1, 2), False), 16 * 10 + 2, WIDTHS)
copy("transposed", (24, (9, 11), True), (9, (0, 1), False), (13, (3, 0), True), 13 * 11 + 8, (8, 32))
copy("plain", (8, (0, 0), False), (8, (0, 0), False), (8, (0, 0), False), 64, (16,))

# ---- constructors, copies, arrays, mixed element types ----
def forms(width, grid=96, tg=64):
    groups = grid // 32
    src = r.uniform(-2, 2, (groups, 8, 8)).astype(np.float32).round(3)
    out = np.zeros((groups, 7, 8, 8), np.float32)
    for g in range(groups):
        L = src[g].astype(np.float64)
        out[g, 0] = 2.0 * np.eye(8)             # simdgroup_float8x8(2.0f)
        out[g, 1] = 1.5                         # make_filled, copied, assigned
        out[g, 2] = L @ (2.0 * np.eye(8))       # simdgroup_multiply(loaded, diagonal)
        out[g, 3] = 2.0 * np.eye(8) @ L + 1.5   # simdgroup_multiply_accumulate(diagonal, loaded, filled)
        out[g, 4] = np.full((8, 8), 0.25) @ (4.0 * np.eye(8)) + L   # half operands, float accumulator
        out[g, 5] = (4.0 * np.eye(8)) @ np.full((8, 8), 0.25)       # in half: 1 everywhere
        out[g, 6] = (2.0 * np.eye(8)) @ L @ (2.0 * np.eye(8))       # (diagonal * loaded) * diagonal
    ref.case("sgm_forms_grid%d_tg%d_w%d" % (grid, tg, width), "sgm_forms",
             {0: src.reshape(-1), 1: Out(out.reshape(-1), tol={"rtol": 1e-6, "atol": 1e-6})},
             threadgroup=tg, grid=grid, width=width)


for width in WIDTHS:
    forms(width)

# ---- matrices through helpers and in a struct ----
def helpers(width, grid=96, tg=64):
    groups = grid // 32
    src = r.uniform(-2, 2, (groups, 8, 8)).astype(np.float32).round(3)
    out = np.zeros((groups, 4, 8, 8), np.float64)
    for g in range(groups):
        L = src[g].astype(np.float64)
        out[g] = [L @ L + L, 2.0 * L, 3.0 * L, L @ L + L]
    ref.case("sgm_helpers_grid%d_tg%d_w%d" % (grid, tg, width), "sgm_helpers",
             {0: src.reshape(-1), 1: Out(out.astype(np.float32).reshape(-1), tol={"rtol": 1e-6, "atol": 1e-5})},
             threadgroup=tg, grid=grid, width=width)


for width in WIDTHS:
    helpers(width)

# ---- threadgroup bytes as half, half2x4 and float (ggml's kernel_mul_mm staging) ----
def shmem(width):
    a = (r.integers(-8, 9, (8, 8)) / 8).astype(np.float32)    # multiples of 1/8: exact in half, products exact
    b = (r.integers(-8, 9, (8, 8)) / 8).astype(np.float32)
    ref.case("sgm_shmem_w%d" % width, "sgm_shmem",
             {0: a.reshape(-1), 1: b.reshape(-1), 2: Out((a.astype(np.float64) @ b).astype(np.float32).reshape(-1),
                                                         tol={"rtol": 0.0, "atol": 0.0})},
             threadgroup=32, threadgroups=1, width=width, threadgroup_memory={0: 256})


for width in (8, 32):
    shmem(width)

# ---- a tiled GEMM, M, N, K not multiples of the tile ----
def gemm(kind, M, N, K, widths):
    a = encode(r.uniform(-1, 1, (M, K)), kind)
    b = encode(r.uniform(-1, 1, (K, N)), kind)
    c = decode(a, kind).astype(np.float64) @ decode(b, kind).astype(np.float64)
    shape = np.array([M, N, K], np.uint32)
    for width in widths:
        ref.case("gemm_tiled_%s_%dx%dx%d_w%d" % (kind, M, N, K, width), "gemm_tiled_" + kind,
                 {0: a.reshape(-1), 1: b.reshape(-1), 2: Out(c.astype(np.float32).reshape(-1),
                                                              tol={"rtol": 1e-5, "atol": 2e-5}),
                  3: Bytes(shape.tobytes())},
                 threadgroup=128, threadgroups=(-(-N // 32), -(-M // 32)), width=width)


gemm("float", 45, 70, 37, WIDTHS)
gemm("half", 33, 40, 50, (8, 32))
gemm("bfloat", 40, 33, 29, (8, 32))

# ---- D = alpha * A * B^T + beta * C through thread_elements() ----
EPILOGUE = np.dtype({"names": ["M", "N", "K", "alpha", "beta"], "formats": ["<u4"] * 3 + ["<f4"] * 2,
                     "offsets": [0, 4, 8, 12, 16], "itemsize": 20})


def epilogue(M, N, K, alpha, beta, widths):
    a = r.uniform(-1, 1, (M, K)).astype(np.float16)
    b = r.uniform(-1, 1, (N, K)).astype(np.float16)
    c = r.uniform(-1, 1, (M, N)).astype(np.float32)
    d = alpha * (a.astype(np.float64) @ b.astype(np.float64).T) + beta * c
    p = np.zeros((), EPILOGUE)
    p["M"], p["N"], p["K"], p["alpha"], p["beta"] = M, N, K, alpha, beta
    for width in widths:
        ref.case("gemm_epilogue_%dx%dx%d_w%d" % (M, N, K, width), "gemm_epilogue",
                 {0: a.reshape(-1), 1: b.reshape(-1), 2: c.reshape(-1),
                  3: Out(d.astype(np.float32).reshape(-1), tol={"rtol": 1e-5, "atol": 2e-5}), 4: Bytes(p.tobytes())},
                 threadgroup=32, threadgroups=(-(-N // 16), -(-M // 16)), width=width)


epilogue(23, 29, 21, 0.5, -2.0, WIDTHS)

# ---- an attention block: softmax(Q K^T * scale) V with an online softmax ----
ATTN = np.dtype({"names": ["Lq", "Lk", "scale"], "formats": ["<u4", "<u4", "<f4"], "offsets": [0, 4, 8], "itemsize": 12})


def attention(Lq, Lk, scale, tg, widths):
    q = r.uniform(-1, 1, (Lq, 16)).astype(np.float16)
    k = r.uniform(-1, 1, (Lk, 16)).astype(np.float16)
    v = r.uniform(-1, 1, (Lk, 16)).astype(np.float16)
    s = (q.astype(np.float64) @ k.astype(np.float64).T) * scale
    w = np.exp(s - s.max(axis=1, keepdims=True))
    o = (w / w.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    p = np.zeros((), ATTN)
    p["Lq"], p["Lk"], p["scale"] = Lq, Lk, scale
    grid = -(-Lq // 8) * 32
    for width in widths:
        ref.case("attention_block_%dx%d_grid%d_tg%d_w%d" % (Lq, Lk, grid, tg, width), "attention_block",
                 {0: q.reshape(-1), 1: k.reshape(-1), 2: v.reshape(-1),
                  3: Out(o.astype(np.float32).reshape(-1), tol={"rtol": 1e-5, "atol": 1e-5}), 4: Bytes(p.tobytes())},
                 threadgroup=tg, grid=grid, width=width)


attention(21, 27, 0.25, 64, WIDTHS)   # 3 SIMD-groups: threadgroups of 2, the last one partial

if __name__ == "__main__":
    raise SystemExit(ref.main())
