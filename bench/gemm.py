#!/usr/bin/python3
"""Benchmark: an f16 GEMM on SIMD-group matrices, translated and run through mtlrun, against torch.matmul.

    bench/gemm.py --mtl2glsl PATH --out DIR [--size N]      then on the machine to measure:
    MTLRUN=/path/to/mtlrun sh DIR/run.sh

bench/gemm.metal (C = A * B, N x N x N, half inputs and result, float accumulation, written the way MLX's steel
GEMM is) is translated for each build and run.sh times each with GPU timestamps (median of 20 runs) on
zero-filled buffers, printing milliseconds and TFLOP/s (2 N^3 operations); then, where Python has torch with a GPU,
torch.matmul on the same shapes (CUDA events, median of 20 after 5 warm-up runs):
    native      --subgroup-size=32                       8x8 products from 12 subgroup shuffles each (exact path)
    virtual32   --subgroup-size=32 --virtual-subgroups   the same over shared-memory subgroups (testing only)
    emulated16  --subgroup-size=16 --virtual-subgroups   SIMD-groups spanning subgroups: products through shared memory
A build the device cannot run prints mtlrun's refusal and the script goes on.
"""
import argparse
import os

import benchrun

HERE = os.path.dirname(os.path.abspath(__file__))
BUILDS = [("native", ["--subgroup-size=32"]), ("virtual32", ["--subgroup-size=32", "--virtual-subgroups"]),
          ("emulated16", ["--subgroup-size=16", "--virtual-subgroups"])]

TORCH = r'''python3 - "$N" <<'PY' 2>/dev/null || echo "torch.matmul not available"
import sys, torch
n = int(sys.argv[1])
if not torch.cuda.is_available():
    raise SystemExit("torch: no CUDA device")
a = torch.randn(n, n, dtype=torch.float16, device="cuda")
b = torch.randn(n, n, dtype=torch.float16, device="cuda")
for _ in range(5):
    torch.matmul(a, b)
times = []
for _ in range(20):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); torch.matmul(a, b); e.record(); torch.cuda.synchronize()
    times.append(s.elapsed_time(e))
t = sorted(times)[len(times) // 2]
print("torch.matmul %.3f %.1f" % (t, 2.0 * n ** 3 / (t * 1e9)))
PY'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", type=int, default=8192, help="N of the N x N x N product (a multiple of 64)")
    args = ap.parse_args()
    n = args.size
    assert n % 64 == 0, "--size must be a multiple of 64"
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "mnk.bin"), "wb") as f:
        f.write(b"".join(v.to_bytes(4, "little") for v in (n, n, n, 0)))  # constant uint3&: 16 bytes
    run = ["--threadgroups", "%d,%d" % (n // 64, n // 64), "--threadgroup", "128",
           "--buffer", "0=float16:%dx%d" % (n, n), "--buffer", "1=float16:%dx%d" % (n, n),
           "--buffer", "2=float16:%dx%d" % (n, n), "--bytes", "3=mnk.bin"]
    lines = ["#!/bin/sh", 'cd "$(dirname "$0")"', "MTLRUN=${MTLRUN:-mtlrun}", "N=%d" % n,
             'echo "build gpu_ms_median TFLOP/s (N=$N)"']
    flops = 2.0 * n ** 3
    for build, opts in BUILDS:
        rel = "%s/gemm_f16" % build
        benchrun.translate(args.mtl2glsl, opts, "gemm_f16", os.path.join(HERE, "gemm.metal"), out, rel)
        cmd = "$MTLRUN %s.comp --reflect %s.json %s --timestamps --repeat 20" % (rel, rel, " ".join(run))
        lines.append('t=$(%s 2>&1 | sed -n "s/^gpu_time_ms: //p"); '
                     'if [ -n "$t" ]; then echo "%s $t $(awk "BEGIN{printf \\"%%.1f\\", %.0f/($t*1e9)}")"; '
                     'else echo "%s refused"; fi' % (cmd, build, flops, build))
    lines.append(TORCH)
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s/run.sh" % out)


if __name__ == "__main__":
    main()
