#!/usr/bin/python3
"""PyTorch's histogram kernels (kernels/HistogramKernel.metal, launched by mps/operations/HistogramKernel.mm)
against NumPy.

histogramdd (torch.histogramdd, torch.histogram, torch.histc before the atomic kernels): the host first runs
kernel_index_offset (the input's element strides and shape as uint arrays at 0 and 2, the offsets written at 1,
num_dimensions at 3; one thread per element), then histogramdd_{type} with one thread per row of the [N, D] input:
input 0, weight 1 (not bound without weights: weight_stride -1, the kernel never reads it; bound here to a
one-element buffer), the per-thread histograms at 2 (at::zeros [N, bins...], summed over N afterwards by
at::sum_out), the offsets at 3, D (size_t) at 4, all bin edges in one array (setBytes) at 5, each dimension's
edge count (int64) at 6, the per-thread histograms' strides (int64) at 7, the bin selection algorithm (uint8: 0
linear interpolation (histc), 1 with local search (histogram, float32 only), 2 binary search (histogramdd)) at 8
and the weight stride (int64) at 9. One thread per row in groups of min(1024, N) (mtl_dispatch1DJob).

histc_atomic_global_{dense|strided}_{type}: counts (int64, updated as two uint halves by c10::metal::AtomicType<long>)
at 1, the offsets (strided) at 2, num_elements (uint) at 3, num_bins (long) at 4, the bin edges at 5; one thread
per element. histc_atomic_threadgroup_*: the same with total_threads (uint) at 6 and num_bins uints of threadgroup
memory; each thread walks the input with a stride of total_threads. The stored HistogramKernel.mm versions predate
these two kernels: their launches here follow the kernels' own parameters (the grid covers num_elements, or
total_threads threads in threadgroups of 256).
"""
import numpy as np

from torchcase import MTYPE, InOut, Out, Scalar, as_dtype, dispatch_1d, longs, reference, rng, values

ref = reference("HistogramKernel.metal")
r = rng(1406)
LINEAR, LOCAL_SEARCH, BINARY_SEARCH = 0, 1, 2


def index_offset_case(shape, perm):
    base = r.standard_normal(shape).astype(np.float32)
    view = base.transpose(perm)
    strides = [s // 4 for s in view.strides]
    n = view.size
    # thread t: its row-major coordinates in the view's shape, dotted with the view's strides
    coords = np.unravel_index(np.arange(n), view.shape)
    want = sum(c * s for c, s in zip(coords, strides)).astype(np.uint32)
    ref.case("torch_hist_kernel_index_offset_%s" % "x".join(map(str, view.shape)), "kernel_index_offset",
             {0: np.asarray(strides, np.uint32), 1: Out(want), 2: np.asarray(view.shape, np.uint32),
              3: Scalar("uint", len(shape))}, **dispatch_1d(n))


def bin_of(v, edges, algorithm, dt):
    """The kernel's bin of value v (float64 of the dtype's value) for one dimension, -1 outside the edges."""
    eps = float(values(as_dtype([4e-6], dt), dt)[0])
    lo, hi = edges[0], edges[-1]
    if not (lo - eps <= v <= hi + eps):
        return -1
    nb = len(edges) - 1
    if algorithm == BINARY_SEARCH:
        pos = int(np.searchsorted(edges, v, side="right")) - 1
    else:
        pos = int(np.floor((v - lo) * nb / (hi - lo)))
        if algorithm == LOCAL_SEARCH:
            pmin, pmax = max(0, pos - 1), min(pos + 2, nb + 1)
            pos = pmin + int(np.searchsorted(edges[pmin:pmax], v, side="right")) - 1
    if pos == nb:
        pos -= 1
    return pos


def away_from_edges(x, edges_list, dt):
    """Moves values off bin edges (and off the linear bins' boundaries), where float rounding on either side would
    pick either bin: a quarter of a bin's width."""
    x = values(x, dt).copy()
    for d, edges in enumerate(edges_list):
        col = x[:, d]
        lo, hi = edges[0], edges[-1]
        q = (col - lo) * (len(edges) - 1) / (hi - lo)
        near = np.abs(q - np.round(q)) < 0.02
        col[near] += (hi - lo) / (len(edges) - 1) * 0.25
        for e in edges:
            col[np.abs(col - e) < (hi - lo) * 1e-3] += (hi - lo) * 4e-3
        x[:, d] = col
    return as_dtype(x, dt)


def histogramdd_case(dt, n, edges_list, algorithm, weighted, label):
    d = len(edges_list)
    edges_list = [values(as_dtype(e, dt), dt) for e in edges_list]
    lo = min(e[0] for e in edges_list) - 0.5
    hi = max(e[-1] for e in edges_list) + 0.5
    x = as_dtype(r.uniform(lo, hi, (n, d)), dt)
    x = away_from_edges(x, edges_list, dt)
    if dt != "bf16" and np.dtype(dt).kind == "f":
        x[3, 0] = np.nan                                   # NaN rows are skipped
    xv = values(x, dt)
    w = as_dtype(r.integers(1, 5, n), dt)
    bins = [len(e) - 1 for e in edges_list]
    hist = np.zeros([n] + bins, dtype=np.float64)
    for t in range(n):
        pos = [bin_of(xv[t, k], edges_list[k], algorithm, dt) for k in range(d)]
        if min(pos) >= 0:
            hist[(t,) + tuple(pos)] += values(w, dt)[t] if weighted else 1
    strides = [int(np.prod([n] + bins)) // n] + [int(np.prod(bins[k + 1:])) for k in range(d)]
    init = as_dtype(np.zeros(hist.size), dt)
    offsets = (np.arange(n)[:, None] * d + np.arange(d)[None, :]).astype(np.uint32).reshape(-1)
    name = "histogramdd_%s" % MTYPE[dt]
    ref.case("torch_hist_%s_%s" % (name, label), name,
             {0: x.reshape(-1), 1: w if weighted else as_dtype([0], dt),
              2: InOut(init, as_dtype(hist.reshape(-1), dt)), 3: offsets, 4: Scalar("ulong", d),
              5: as_dtype(np.concatenate(edges_list), dt), 6: longs([len(e) for e in edges_list]),
              7: longs(strides), 8: Scalar("uchar", algorithm), 9: Scalar("long", 1 if weighted else -1)},
             **dispatch_1d(n))


def linear_edges(lo, hi, bins, dt):
    return values(as_dtype(np.linspace(lo, hi, bins + 1), dt), dt)


def histc_values(dt, n, edges):
    """Values whose float32 bin arithmetic cannot round across a boundary; some outside the range."""
    lo, hi = edges[0], edges[-1]
    nb = len(edges) - 1
    if np.dtype(dt).kind == "f":
        x = r.uniform(lo - 0.3 * (hi - lo), hi + 0.3 * (hi - lo), n)
        q = (x - lo) * nb / (hi - lo)
        x[np.abs(q - np.round(q)) < 0.01] += (hi - lo) / nb * 0.3
        x = as_dtype(x, dt)
    else:
        x = r.integers(int(lo) - 5, int(hi) + 6, n).astype(dt)
    return x


def histc_counts(xv, edges, dt):
    """linear_bin's arithmetic in the input type T (half rounds after each operation; integers divide as longs)."""
    ft = np.float16 if dt == np.float16 else np.float32
    lo, hi = ft(edges[0]), ft(edges[-1])
    nb = len(edges) - 1
    counts = np.zeros(nb, dtype=np.int64)
    for v in xv:
        v = ft(v)
        if not (lo <= v <= hi):
            continue
        if np.dtype(dt).kind == "f":
            pos = int(ft(ft(ft(v - lo) * ft(nb)) / ft(hi - lo)))
        else:
            pos = (int(v) - int(lo)) * nb // (int(hi) - int(lo))
        counts[min(max(pos, 0), nb - 1)] += 1
    return counts


def histc_case(kind, dt, n, bins, lo, hi, strided=False, groups=None):
    edges = np.linspace(lo, hi, bins + 1).astype(dt) if np.dtype(dt).kind == "f" else \
        np.arange(lo, hi + 1, (hi - lo) // bins).astype(dt)[:bins + 1]
    bins = len(edges) - 1
    x = histc_values(dt, n, edges.astype(np.float64))
    if strided:
        # a column of a [n, 3] tensor: element i at offset 3 i + 1
        base = np.zeros((n, 3), dtype=x.dtype)
        base[:, 1] = x
        data, offsets = base.reshape(-1), (np.arange(n) * 3 + 1).astype(np.uint32)
    else:
        data, offsets = x, np.zeros(1, np.uint32)
    counts = histc_counts(values(x, dt), edges.astype(np.float64), dt)
    init = np.zeros(2 * bins, dtype=np.uint32)
    name = "histc_atomic_%s_%s_%s" % (kind, "strided" if strided else "dense", MTYPE[dt])
    bufs = {0: data, 1: InOut(init, counts.view(np.uint32)), 2: offsets, 3: Scalar("uint", n),
            4: Scalar("long", bins), 5: edges}
    if kind == "global":
        ref.case("torch_hist_%s_%d" % (name, n), name, bufs, **dispatch_1d(n))
    else:
        total = groups * 256
        bufs[6] = Scalar("uint", total)
        ref.case("torch_hist_%s_%d" % (name, n), name, bufs, threadgroup=256, threadgroups=groups,
                 threadgroup_memory={0: -(-4 * bins // 16) * 16})   # setThreadgroupMemoryLength: a multiple of 16


index_offset_case((7, 3), (1, 0))
index_offset_case((4, 5, 6), (2, 0, 1))
histogramdd_case(np.float32, 37, [[-2.0, -0.5, 0.0, 0.25, 3.0], [0.0, 1.0, 4.0]], BINARY_SEARCH, True, "binary_2d")
histogramdd_case(np.float32, 301, [linear_edges(-1, 2, 12, np.float32)], LINEAR, False, "linear_1d")
histogramdd_case(np.float32, 64, [linear_edges(0, 1, 5, np.float32), linear_edges(-3, 3, 7, np.float32)],
                 LOCAL_SEARCH, True, "local_search_2d")
histogramdd_case(np.float16, 50, [[-1.0, 0.0, 0.5, 2.0]], BINARY_SEARCH, True, "binary_1d")
histc_case("global", np.float32, 1000, 13, -2.0, 3.0)
histc_case("global", np.float32, 517, 7, 0.0, 1.0, strided=True)
histc_case("global", np.int32, 300, 10, 0, 20)
histc_case("threadgroup", np.float32, 5000, 33, -1.0, 1.0, groups=3)
histc_case("threadgroup", np.float16, 999, 9, -4.0, 4.0, strided=True, groups=2)

if __name__ == "__main__":
    raise SystemExit(ref.main())
