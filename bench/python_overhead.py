#!/usr/bin/python3
"""Per-call cost of a cached kernel on a small array (axpy, 1024 floats), four ways (docs/performance.md):

  python compile_shader, NumPy args   lib.axpy(x, y, 2.0): staging copies in, y written back
  python compile_shader, DeviceArrays lib.axpy(dx, dy, 2.0): no copies
  python metal_kernel                 kernel(inputs=[...], ...): a new output DeviceArray per call
  raw runtime                         mtlrt_dispatch() on prebuilt arguments (ctypes, no Python packing)
  mtlrun                              one `mtlrun samples/axpy.metal ...` process per call (start-up, Vulkan
                                      context, translation, pipeline: everything a CLI call pays)
and the GPU time of one dispatch (device timestamps). Wall-clock medians of several batches.

usage: MTL2GLSL_LIBRARY_PATH=build bench/python_overhead.py [--mtlrun build/runtime/mtlrun] [--calls N]
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


def per_call_us(fn, calls, batches=5):
    fn()  # warm: translation, pipeline, staging buffers
    times = []
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t) / calls * 1e6)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtlrun", default=os.path.join(ROOT, "build", "runtime", "mtlrun"))
    ap.add_argument("--calls", type=int, default=200)
    args = ap.parse_args()
    x = np.random.default_rng(0).standard_normal(N).astype(np.float32)
    y = np.zeros(N, np.float32)
    lib = mtl2glsl.compile_shader(SRC)
    rows = []
    rows.append(("python compile_shader, NumPy args", per_call_us(lambda: lib.axpy(x, y, 2.0), args.calls)))
    dx, dy = mtl2glsl.array(x), mtl2glsl.array(y)
    rows.append(("python compile_shader, DeviceArrays", per_call_us(lambda: lib.axpy(dx, dy, 2.0), args.calls)))
    mk = mtl2glsl.metal_kernel("axpy", ["x", "y", "a"], ["out"],
                               "uint i = thread_position_in_grid.x;\nout[i] = a * x[i] + y[i];")
    a = np.float32(2.0)
    rows.append(("python metal_kernel", per_call_us(
        lambda: mk(inputs=[dx, dy, a], grid=(N, 1, 1), threadgroup=(256, 1, 1), output_shapes=[(N,)],
                   output_dtypes=[mtl2glsl.float32]), args.calls)))

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
    rows.append(("raw runtime (mtlrt_dispatch)", per_call_us(lambda: dispatch(pipe, dref, sref), args.calls)))
    gpu_ms = lib.axpy.time(x, y, 2.0, group_size=256, repeat=20)

    if os.path.exists(args.mtlrun):
        with tempfile.TemporaryDirectory() as tmp:
            np.save(os.path.join(tmp, "x.npy"), x)
            np.save(os.path.join(tmp, "y.npy"), y)
            cmd = [args.mtlrun, os.path.join(ROOT, "samples", "axpy.metal"), "--entry", "axpy", "--grid", str(N),
                   "--threadgroup", "256", "--buffer", "0=" + os.path.join(tmp, "x.npy"), "--buffer",
                   "1=" + os.path.join(tmp, "y.npy"), "--scalar", "2=float:2", "--out",
                   "1=" + os.path.join(tmp, "out.npy")]
            run = lambda: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # noqa
            rows.append(("mtlrun (one process per call)", per_call_us(run, 3, batches=3)))
    print("device: %s; axpy on %d floats; median per call over batches of %d calls" % (
        mtl2glsl.device_name(), N, args.calls))
    for label, us in rows:
        print("  %-38s %10.1f us" % (label, us))
    print("  %-38s %10.1f us" % ("GPU time of the dispatch (timestamps)", gpu_ms * 1e3))


if __name__ == "__main__":
    main()
