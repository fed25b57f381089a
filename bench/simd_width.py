#!/usr/bin/python3
"""Benchmark: what each way of building SIMD-groups costs (docs/performance.md).

    bench/simd_width.py --mtl2glsl PATH --out DIR [--scale S]      then on the machine to measure:
    MTLRUN=/path/to/mtlrun sh DIR/run.sh

Translates RMSNorm (one row per SIMD-group), softmax (one row per threadgroup) and the block scan for each
build and writes run.sh, which times each with GPU timestamps (median of 20 runs) on zero-filled buffers:
    native      --subgroup-size=32                       the device's own 32-wide subgroups
    clustered   --subgroup-size=64                       (only where subgroups are 64 wide)
    emulated8   --subgroup-size=8                        (only where subgroups are 8 wide, e.g. lavapipe)
    virtual32   --subgroup-size=32 --virtual-subgroups   the native mapping over shared-memory subgroups
    virtual16   --subgroup-size=16 --virtual-subgroups   emulated SIMD-groups over shared-memory subgroups
    virtual64   --subgroup-size=64 --virtual-subgroups   clustered SIMD-groups over shared-memory subgroups
A build the device cannot run prints mtlrun's refusal and the script goes on.
"""
import argparse
import os

import benchrun

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILDS = [("native", ["--subgroup-size=32"]), ("clustered", ["--subgroup-size=64"]), ("emulated8", ["--subgroup-size=8"]),
          ("virtual32", ["--subgroup-size=32", "--virtual-subgroups"]),
          ("virtual16", ["--subgroup-size=16", "--virtual-subgroups"]),
          ("virtual64", ["--subgroup-size=64", "--virtual-subgroups"])]


def kernels(scale):
    rows, dim = 2048 * scale, 1024
    srows, cols = 256 * scale, 4096
    n = 1 << (20 + (scale.bit_length() - 1))
    return [
        ("rmsnorm", "rmsnorm", ["--grid", str(rows * 32), "--threadgroup", "256",
                                "--buffer", "0=float32:%dx%d" % (rows, dim), "--buffer", "1=float32:%d" % dim,
                                "--buffer", "2=float32:%dx%d" % (rows, dim), "--scalar", "3=uint:%d" % rows,
                                "--scalar", "4=uint:%d" % dim, "--scalar", "5=float:1"], rows * dim * 8),
        ("softmax", "softmax", ["--threadgroups", str(srows), "--threadgroup", "256",
                                "--buffer", "0=float32:%dx%d" % (srows, cols), "--buffer", "1=float32:%dx%d" % (srows, cols),
                                "--scalar", "2=uint:%d" % cols], srows * cols * 8),
        ("scan", "scan_blocks", ["--grid", str(n), "--threadgroup", "1024", "--buffer", "0=uint32:%d" % n,
                                 "--buffer", "1=uint32:%d" % n, "--buffer", "2=uint32:%d" % (n // 1024),
                                 "--scalar", "3=uint:%d" % n, "--scalar", "4=uint:0"], n * 8),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--scale", type=int, default=1, help="problem size multiplier (a power of two)")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    lines = benchrun.header("sample build")
    for sample, entry, run, nbytes in kernels(args.scale):
        for build, opts in BUILDS:
            rel = "%s/%s/%s" % (sample, build, entry)
            benchrun.translate(args.mtl2glsl, opts, entry, os.path.join(ROOT, "samples", sample + ".metal"), out, rel)
            lines.append(benchrun.timing_line(rel, run, "%s %s" % (sample, build), nbytes))
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s/run.sh" % out)


if __name__ == "__main__":
    main()
