#!/usr/bin/python3
"""Reference for samples/params_struct.metal: a `constant Params&` struct laid out by Metal's rules."""
import numpy as np
from refcase import Bytes, Out, Reference, groups_for, rng

# struct Params { float scale; float bias; float2 limits; uint count; int shift; float4 tint; }
# Metal/C layout: 0, 4, 8, 16, 20, 32 (float4 is 16-aligned); size 48.
PARAMS = np.dtype({"names": ["scale", "bias", "limits", "count", "shift", "tint"],
                   "formats": ["<f4", "<f4", ("<f4", 2), "<u4", "<i4", ("<f4", 4)],
                   "offsets": [0, 4, 8, 16, 20, 32], "itemsize": 48})

ref = Reference("params_struct.metal")
r = rng(5)


def add(name, count, tg, style, scale, bias, lo, hi, shift, tint):
    x = r.uniform(-4, 4, count).astype(np.float32)
    p = np.zeros((), dtype=PARAMS)
    p["scale"], p["bias"], p["limits"], p["count"], p["shift"], p["tint"] = scale, bias, (lo, hi), count, shift, tint
    s = int(np.fmod(shift, count))           # C's %: the remainder keeps the sign of shift
    src = (np.arange(count) + s + count) % count
    v = np.clip(x[src] * np.float32(scale) + np.float32(bias), np.float32(lo), np.float32(hi)).astype(np.float32)
    expected = (np.asarray(tint, dtype=np.float32)[None, :] * v[:, None]).astype(np.float32)
    grid = dict(grid=count) if style == "grid" else dict(threadgroups=groups_for(count, tg))
    ref.case(name, "params_struct", {0: x, 1: Out(expected, tol={"rtol": 1e-5, "atol": 1e-5}),
                                     2: Bytes(p.tobytes())}, threadgroup=tg, **grid)


add("params_struct_grid1000_tg128", 1000, 128, "grid", 1.5, -0.25, -2.0, 3.0, 7, (1.0, 0.5, -2.0, 0.0))
add("params_struct_groups_tg64", 1000, 64, "groups", -0.5, 1.0, -1.0, 1.0, -13, (2.0, 1.0, 0.25, -1.0))

if __name__ == "__main__":
    raise SystemExit(ref.main())
