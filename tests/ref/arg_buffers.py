#!/usr/bin/python3
"""Reference for samples/arg_buffers.metal: argument buffers, structs in buffers whose pointer members hold the
device addresses the host writes there (mtlrun pipeline `address` lines), as PyTorch's multi-tensor kernels
read them."""
import numpy as np
from refcase import Bytes, InOut, Out, Reference, Scalar, rng

ref = Reference("arg_buffers.metal")
r = rng(1313)
MAX_TENSORS, MAX_GROUPS, CHUNK = 4, 8, 64
TOL = {np.float32: {"rtol": 1e-6, "atol": 1e-6}, np.float16: {"rtol": 1e-3, "atol": 1e-3}}


def multi_axpy(name, dt, lengths, a, tg, skip=0, runs=1):
    """Tensors of LENGTHS in chunks of 64, a threadgroup per chunk (as PyTorch's multi_tensor_apply assigns them);
    the x of the last tensor starts SKIP elements into its buffer (a storage offset: the address plus bytes).
    RUNS launches in one submission: each reads what the one before wrote through the addresses (the runtime
    orders a dispatch that reads addresses after everything before it)."""
    buffers, addresses = {"args": np.zeros(2 * MAX_TENSORS * 8, np.uint8)}, []
    numels, to_tensor, to_chunk = np.zeros(MAX_TENSORS, np.uint64), np.zeros(MAX_GROUPS, np.uint64), np.zeros(MAX_GROUPS, np.uint64)
    groups = 0
    for t, n in enumerate(lengths):
        off = skip if t == len(lengths) - 1 else 0
        x = r.uniform(-2, 2, n + off).astype(dt)
        y = r.uniform(-2, 2, n).astype(dt)
        want_x, want_y = x.copy(), y.copy()
        for _ in range(runs):
            want_y = (np.float32(a) * want_x[off:].astype(np.float32) + want_y.astype(np.float32)).astype(dt)
            want_x[off:] = -want_x[off:]
        buffers["x%d" % t] = InOut(x, want_x, tol=TOL[dt])
        buffers["y%d" % t] = InOut(y, want_y, tol=TOL[dt])
        addresses += [("args", 8 * t, "x%d" % t, off * np.dtype(dt).itemsize), ("args", 8 * (MAX_TENSORS + t), "y%d" % t, 0)]
        numels[t] = n
        for c in range(-(-n // CHUNK)):
            to_tensor[groups], to_chunk[groups] = t, c
            groups += 1
    meta = Bytes(numels.tobytes() + to_tensor.tobytes() + to_chunk.tobytes())
    entry = "multi_axpy_%s" % ("float" if dt == np.float32 else "half")
    ref.pipeline(name, buffers, [dict(entry=entry, bind={0: "args", 1: meta, 2: Scalar("float", a)},
                                      threadgroup=tg, threadgroups=groups)] * runs, addresses=addresses)


def gather_tables(name, n, grid, tg):
    """A constant argument buffer: Table {rows (8 bytes), row_len, scale} x 2, then out and pairs (48 bytes)."""
    shapes = [(5, 3), (4, 6)]
    rows = [r.uniform(-4, 4, s).astype(np.float32) for s in shapes]
    scales = [np.float32(0.5), np.float32(-3.0)]
    row_of = np.array([r.integers(0, shapes[i & 1][0]) for i in range(n)], np.uint32)
    args = bytearray(48)
    for k, (s, sc) in enumerate(zip(shapes, scales)):
        args[16 * k + 8:16 * k + 16] = np.array([s[1]], np.uint32).tobytes() + np.array([sc], np.float32).tobytes()
    first = np.array([rows[i & 1][row_of[i], 0] * scales[i & 1] for i in range(n)], np.float32)
    last = np.array([rows[i & 1][row_of[i], -1] for i in range(n)], np.float32)
    buffers = {"tabs": np.frombuffer(bytes(args), np.uint8).copy(), "rows0": rows[0].reshape(-1), "rows1": rows[1].reshape(-1),
               "row_of": row_of, "out": Out((first + last).astype(np.float32)),
               "pairs": Out(np.stack([first, last], axis=1))}
    addresses = [("tabs", 0, "rows0", 0), ("tabs", 16, "rows1", 0), ("tabs", 32, "out", 0), ("tabs", 40, "pairs", 0)]
    ref.pipeline(name, buffers, [dict(entry="gather_tables", bind={0: "tabs", 1: "row_of", 2: Scalar("uint", n)},
                                      threadgroup=tg, grid=grid)], addresses=addresses)


multi_axpy("multi_axpy_float", np.float32, [100, 64, 37], 1.5, 32, skip=3)
multi_axpy("multi_axpy_half", np.float16, [130, 5], -0.75, 64)
multi_axpy("multi_axpy_twice", np.float32, [70, 9], 0.25, 16, runs=2)
gather_tables("gather_tables", 37, 40, 16)

if __name__ == "__main__":
    raise SystemExit(ref.main())
