#!/usr/bin/python3
"""Reference for samples/ggml_forms.metal: sizeof/alignof, the comma operator, GNU range designators, enumerators
as template arguments, a const output buffer written through a cast (ggml's kernel_tri), and functions chosen at
compile time through template parameters of function type (ggml's kernel_mul_mv_id)."""
import numpy as np
from refcase import InOut, Out, Reference, Scalar, rng

ref = Reference("ggml_forms.metal")
r = rng(616)


def pick_case(name, entry, n, tg):
    x = r.uniform(-4, 4, (n, 4)).astype(np.float32)
    lo = np.minimum(x[:, 0], x[:, 1])
    hi = np.maximum(x[:, 2], x[:, 3])
    best = lo if entry == "pick_asc" else hi
    acc = (np.float32(0.25) * x).astype(np.float32)
    expected = (best + acc[:, 0] + acc[:, 1] + acc[:, 2] + acc[:, 3] + np.float32(8 + 4)).astype(np.float32)
    ref.case(name, entry, {0: x.view(np.int8), 1: Out(expected, tol={"rtol": 1e-6, "atol": 1e-6}), 2: Scalar("uint", n)},
             threadgroup=tg, grid=n)


def tri_case(name, rows, cols, tg):
    x = r.standard_normal((rows, cols)).astype(np.float32)
    init = np.full((rows, cols), 7.0, dtype=np.float32)
    # `device const char*` buffers: the floats' bytes
    ref.case(name, "lower_triangle", {0: x.view(np.int8), 1: InOut(init.view(np.int8), np.tril(x).view(np.int8)),
                                      2: Scalar("uint", cols)},
             threadgroup=tg, grid=(cols, rows))


def chunk_walk_case(name, n, step, tg):
    out = np.empty(n, dtype=np.int16)
    for i in range(n):
        c = i % 7
        for _ in range(4):
            c = c + step
            c = int(np.fmod(c, 5))        # C's %: truncates toward zero
        out[i] = c
    ref.case(name, "chunk_walk", {0: Out(out), 1: Scalar("int", step)}, threadgroup=tg, grid=n)


def half_row_sum(row):
    acc = np.float16(0)
    for v in row:
        acc = np.float16(acc + np.float16(v))    # half arithmetic: each sum rounded to half
    return np.float32(acc)


def rows_case(name, entry, rows, n, tg):
    x = r.uniform(-1, 1, (rows, n)).astype(np.float32)
    tol = {"rtol": 1e-5, "atol": 1e-5}
    tgmem = {0: 4 * tg}
    if entry == "rows_sum_f32":
        expected = np.array([np.float32(sum(np.float64(v) for v in row)) for row in x], dtype=np.float32)
        ref.case(name, entry, {0: x, 1: Out(expected, tol=tol), 2: Scalar("uint", n)},
                 threadgroup=tg, grid=rows, threadgroup_memory=tgmem)
    elif entry == "rows_max_plus_2":
        ref.case(name, entry, {0: x, 1: Out((x.max(axis=1) + 2).astype(np.float32)), 2: Scalar("uint", n)},
                 threadgroup=tg, grid=rows, threadgroup_memory=tgmem)
    else:  # rows_sum_f32_f16: float sums into y, half sums into z
        y = x.astype(np.float64).sum(axis=1).astype(np.float32)
        z = np.array([half_row_sum(row) for row in x], dtype=np.float32)
        ref.case(name, entry, {0: x, 1: Out(y, tol=tol), 2: Out(z, tol={"rtol": 4e-3, "atol": 4e-3}),
                               3: Scalar("uint", n)},
                 threadgroup=tg, grid=rows, threadgroup_memory=tgmem)


pick_case("ggml_forms_pick_asc", "pick_asc", 300, 64)
pick_case("ggml_forms_pick_desc", "pick_desc", 300, 64)
tri_case("ggml_forms_lower_triangle", 37, 45, (8, 8))
chunk_walk_case("ggml_forms_chunk_walk", 200, 3, 64)
chunk_walk_case("ggml_forms_chunk_walk_negative", 200, -4, 64)
rows_case("ggml_forms_rows_sum_f32", "rows_sum_f32", 150, 24, 32)
rows_case("ggml_forms_rows_max_plus_2", "rows_max_plus_2", 150, 24, 32)
rows_case("ggml_forms_rows_sum_f32_f16", "rows_sum_f32_f16", 150, 24, 32)

if __name__ == "__main__":
    raise SystemExit(ref.main())
