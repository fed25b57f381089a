#!/usr/bin/python3
"""Runtime benchmarks (docs/performance.md, "The runtime: transfers and dispatch overhead").

    runtime_bench.py --mtl2glsl build/translator/mtl2glsl --out DIR [--rows 8192] [--cols 4096]

translates bench/scale2d.metal into DIR (scale2d.comp + scale2d.json, so the machine that runs it needs no
translator) and writes DIR/run.py. On any machine with python3 + NumPy, an mtlrun and (optionally) a
dispatch_bench (both built from this tree; a GPU machine needs no translator):

    MTLRUN=/path/to/mtlrun [DISPATCH_BENCH=/path/to/dispatch_bench] /usr/bin/python3 DIR/run.py [--reps 5]

run.py makes an 8192 x 4096 float32 input, and times mtlrun end to end (wall clock of the whole process, median and
minimum of REPS runs):
  e2e       read in.npy (128 MiB), upload, y = 2 x, download, write out.npy (128 MiB): the issue-17 run
  no-out    the same without --out (no download, no .npy write)
  repeat    --repeat 10 --timestamps --out: the restores between runs (GPU copies) and the GPU time per run
  numpy     np.load + np.save of the same arrays (the host's own floor for the file part)
every mtlrun output checked against NumPy (2 x exactly). Then dispatch_bench (1000 dependent dispatches: a recorded
command list against a raw Vulkan loop; see bench/dispatch_bench.c) when DISPATCH_BENCH is set.
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

RUN_PY = r'''#!/usr/bin/python3
"""Written by bench/runtime_bench.py: MTLRUN=... [DISPATCH_BENCH=...] python3 run.py [--reps N] [--device D]"""
import argparse, os, statistics, subprocess, sys, time
import numpy as np

D = os.path.dirname(os.path.abspath(__file__))
ROWS, COLS = {rows}, {cols}


def timed(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    t = time.perf_counter() - t0
    if p.returncode:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return t, p.stdout


def show(name, times, extra=""):
    print("%-8s median %7.3f s  min %7.3f s%s" % (name, statistics.median(times), min(times), extra), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--device")
    args = ap.parse_args()
    mtlrun = os.environ["MTLRUN"]
    x = np.random.default_rng(0).standard_normal((ROWS, COLS), dtype=np.float32)
    inp, out = os.path.join(D, "in.npy"), os.path.join(D, "out.npy")
    np.save(inp, x)
    want = (np.float32(2) * x).astype(np.float32)
    base = [mtlrun, os.path.join(D, "scale2d.comp"), "--reflect", os.path.join(D, "scale2d.json"),
            "--grid", "%d,%d" % (COLS, ROWS), "--threadgroup", "256,1", "--buffer", "0=" + inp,
            "--buffer", "1=float32:%dx%d" % (ROWS, COLS), "--scalar", "2=2", "-q"]
    if args.device:
        base += ["--device", args.device]
    print("%d x %d float32 in and out (%d MiB each), %d runs" % (ROWS, COLS, ROWS * COLS * 4 >> 20, args.reps))
    print(subprocess.run([mtlrun, "--list-devices"], capture_output=True, text=True).stdout.strip())
    for name, extra in [("e2e", ["--out", "1=" + out]), ("no-out", []),
                        ("repeat", ["--repeat", "10", "--timestamps", "--out", "1=" + out])]:
        times, gpu = [], []
        for _ in range(args.reps):
            if os.path.exists(out):
                os.remove(out)
            t, stdout = timed(base + extra)
            times.append(t)
            gpu += [float(l.split()[1]) for l in stdout.splitlines() if l.startswith("gpu_time_ms:")]
            if "--out" in extra and not np.array_equal(np.load(out), want):
                sys.exit("%s: the output differs from 2 x" % name)
        show(name, times, "  (GPU %.3f ms per run, median)" % statistics.median(gpu) if gpu else "")
    times = []
    for _ in range(args.reps):
        t0 = time.perf_counter()
        np.save(out, np.load(inp))
        times.append(time.perf_counter() - t0)
    show("numpy", times, "  (np.load + np.save of the same 128 MiB: the file part's floor)")
    os.remove(inp), os.remove(out)
    bench = os.environ.get("DISPATCH_BENCH")
    if bench:
        cmd = [bench, "--dispatches", "1000", "--reps", "20"] + (["--device", args.device] if args.device else [])
        print(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout, end="")


main()
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--cols", type=int, default=4096)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    src = os.path.join(HERE, "scale2d.metal")
    for emit, ext in [("glsl", "comp"), ("reflect", "json")]:
        subprocess.run([args.mtl2glsl, "--emit=" + emit, "-o", os.path.join(args.out, "scale2d." + ext), src],
                       check=True)
    with open(os.path.join(args.out, "run.py"), "w") as f:
        f.write(RUN_PY.replace("{rows}", str(args.rows)).replace("{cols}", str(args.cols)))
    shutil.copy(os.path.join(HERE, "dispatch_bench.c"), args.out)  # what the dispatch figures measure
    print("wrote %s: MTLRUN=... [DISPATCH_BENCH=...] /usr/bin/python3 %s/run.py" % (args.out, args.out))


if __name__ == "__main__":
    sys.exit(main())
