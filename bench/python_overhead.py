#!/usr/bin/python3
"""Per-call cost of a cached kernel on a small array (axpy, 1024 floats), four ways (docs/performance.md):

  python compile_shader, NumPy args   lib.axpy(x, y, 2.0): staging copies in, y written back
  python compile_shader, DeviceArrays lib.axpy(dx, dy, 2.0): no copies
  python metal_kernel                 kernel(inputs=[...], ...): a new output DeviceArray per call
  raw runtime                         mtlrt_dispatch() on prebuilt arguments (ctypes, no Python packing)
  mtlrun                              one `mtlrun samples/axpy.metal ...` process per call (start-up, Vulkan
                                      context, translation, pipeline: everything a CLI call pays)
and the GPU time of one dispatch (device timestamps). Wall clock: minimum and median over batches, the cases
taking turns.

usage: MTL2GLSL_LIBRARY_PATH=build bench/python_overhead.py [--mtlrun build/runtime/mtlrun] [--calls N] [--batches B]
"""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("MTL2GLSL_LIBRARY_PATH", os.path.join(ROOT, "build"))

import numpy as np  # noqa: E402

import mtl2glsl  # noqa: E402
from mtl2glsl import _lib  # noqa: E402

N = 1024
SRC = open(os.path.join(ROOT, "samples", "axpy.metal")).read()


def measure(cases, calls, batches):
    """{label: (min, median) microseconds per call}: batches of CALLS calls, the cases taking turns, so that load
    from other processes falls on all of them alike; the minimum is the cost without interference."""
    for _, fn, _ in cases:
        fn()  # warm: translation, pipeline, staging buffers
    times = {label: [] for label, _, _ in cases}
    for _ in range(batches):
        for label, fn, n in cases:
            n = n or calls
            t = time.perf_counter()
            for _ in range(n):
                fn()
            times[label].append((time.perf_counter() - t) / n * 1e6)
    return {label: (min(ts), statistics.median(ts)) for label, ts in times.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtlrun", default=os.path.join(ROOT, "build", "runtime", "mtlrun"))
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--batches", type=int, default=7)
    args = ap.parse_args()
    x = np.random.default_rng(0).standard_normal(N).astype(np.float32)
    y = np.zeros(N, np.float32)
    lib = mtl2glsl.compile_shader(SRC)
    cases = [("python compile_shader, NumPy args", lambda: lib.axpy(x, y, 2.0), 0)]
    dx, dy = mtl2glsl.array(x), mtl2glsl.array(y)
    cases.append(("python compile_shader, DeviceArrays", lambda: lib.axpy(dx, dy, 2.0), 0))
    mk = mtl2glsl.metal_kernel("axpy", ["x", "y", "a"], ["out"],
                               "uint i = thread_position_in_grid.x;\nout[i] = a * x[i] + y[i];")
    a = np.float32(2.0)
    cases.append(("python metal_kernel", lambda: mk(inputs=[dx, dy, a], grid=(N, 1, 1), threadgroup=(256, 1, 1),
                                                    output_shapes=[(N,)], output_dtypes=[mtl2glsl.float32]), 0))

    # raw runtime: the same pipeline, arguments built once, mtlrt_dispatch in a loop
    k = lib.axpy._k
    bindings = (ctypes.c_void_p * k.n_bindings)(dx.buffer, dy.buffer)
    push = ctypes.create_string_buffer(k.push_size)
    ctypes.memmove(ctypes.addressof(push) + k.by_index[2]["offset"], np.float32(2.0).tobytes(), 4)
    d = _lib.MtlrtDispatch(style=_lib.MTLRT_DISPATCH_THREADS, bindings=ctypes.cast(bindings, ctypes.POINTER(
        ctypes.c_void_p)), n_bindings=k.n_bindings, push_data=ctypes.addressof(push), push_size=k.push_size)
    d.size[:] = [N, 1, 1]
    d.threadgroup[:] = [256, 1, 1]
    stats = _lib.MtlrtDispatchStats()
    dispatch, pipe, dref, sref = _lib.rt.mtlrt_dispatch, k._pipe, ctypes.byref(d), ctypes.byref(stats)
    cases.append(("raw runtime (mtlrt_dispatch)", lambda: dispatch(pipe, dref, sref), 0))
    gpu_ms = lib.axpy.time(x, y, 2.0, group_size=256, repeat=20)
    tmp = tempfile.mkdtemp()

    if os.path.exists(args.mtlrun):
        np.save(os.path.join(tmp, "x.npy"), x)
        np.save(os.path.join(tmp, "y.npy"), y)
        cmd = [args.mtlrun, os.path.join(ROOT, "samples", "axpy.metal"), "--entry", "axpy", "--grid", str(N),
               "--threadgroup", "256", "--buffer", "0=" + os.path.join(tmp, "x.npy"), "--buffer",
               "1=" + os.path.join(tmp, "y.npy"), "--scalar", "2=float:2", "--out", "1=" + os.path.join(tmp, "out.npy")]
        run = lambda: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # noqa
        cases.append(("mtlrun (one process per call)", run, 2))
    res = measure(cases, args.calls, args.batches)
    print("device: %s; axpy on %d floats; per call, microseconds: min and median of %d batches of %d calls" % (
        mtl2glsl.device_name(), N, args.batches, args.calls))
    for label, (lo, med) in res.items():
        print("  %-38s %10.1f %10.1f" % (label, lo, med))
    print("  %-38s %10.1f" % ("GPU time of the dispatch (timestamps)", gpu_ms * 1e3))


if __name__ == "__main__":
    main()
