#!/usr/bin/python3
"""Reference for samples/ggml_forms.metal: sizeof/alignof, the comma operator, GNU range designators, enumerators
as template arguments, and a const output buffer written through a cast (ggml's kernel_tri)."""
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


pick_case("ggml_forms_pick_asc", "pick_asc", 300, 64)
pick_case("ggml_forms_pick_desc", "pick_desc", 300, 64)
tri_case("ggml_forms_lower_triangle", 37, 45, (8, 8))

if __name__ == "__main__":
    raise SystemExit(ref.main())
